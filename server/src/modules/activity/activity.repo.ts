import type { Kysely } from 'kysely';
import type { ActivityTable, Database } from '../../db/schema';

/** The database or a transaction on it. */
export type Executor = Kysely<Database>;

/** SQL for activity rows. */
export class ActivityRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: ActivityTable, db: Executor): Promise<void> {
    await db.insertInto('activity').values(row).execute();
  }
}
