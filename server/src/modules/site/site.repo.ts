import type { Kysely } from 'kysely';
import type { ContactMessagesTable, Database } from '../../db/schema';

/** SQL for the public site: the contact messages it keeps. */
export class SiteRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insertContactMessage(row: ContactMessagesTable): Promise<void> {
    await this.db.insertInto('contact_messages').values(row).execute();
  }
}
