import type { Kysely, Transaction } from 'kysely';
import { dialectOf } from '../../db/dialect-sql';
import type { Database, InviteLinksTable, MemberRole } from '../../db/schema';
import { addProjectMember } from './join-sql';

type Executor = Kysely<Database> | Transaction<Database>;

/** An invite link with what its join page names: the project and whoever made it. */
export interface InviteLinkRow extends InviteLinksTable {
  project_name: string;
  creator_email: string | null;
  creator_user_name: string | null;
  creator_display_name: string | null;
}

/**
 * SQL for invite links and joining through one. A use is taken only by `takeUse`: one guarded
 * UPDATE, so concurrent joins on a link with one use left cannot both pass. Who may call these is
 * the service's business (through the access policy).
 */
export class InviteLinksRepo {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Holds the project's row until the transaction ends, so two new links count in turn. */
  async lockProject(trx: Transaction<Database>, projectId: string): Promise<void> {
    let query = trx.selectFrom('projects').select('id').where('id', '=', projectId);
    if (dialectOf(trx as unknown as Kysely<unknown>) === 'postgres') query = query.forUpdate();
    await query.executeTakeFirst();
  }

  /** A project's live links (not revoked, not expired, uses left), newest first. */
  live(projectId: string, now: string, db: Executor = this.db): Promise<InviteLinksTable[]> {
    return db
      .selectFrom('invite_links')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .whereRef('uses', '<', 'max_uses')
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  async insert(row: InviteLinksTable, db: Executor = this.db): Promise<void> {
    await db.insertInto('invite_links').values(row).execute();
  }

  findById(id: string): Promise<InviteLinksTable | undefined> {
    return this.db.selectFrom('invite_links').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByKey(key: string): Promise<InviteLinkRow | undefined> {
    return this.db
      .selectFrom('invite_links')
      .innerJoin('projects', 'projects.id', 'invite_links.project_id')
      .leftJoin('users as creator', 'creator.id', 'invite_links.creator_id')
      .leftJoin('profiles as creator_profile', 'creator_profile.user_id', 'invite_links.creator_id')
      .selectAll('invite_links')
      .select([
        'projects.name as project_name',
        'creator.email as creator_email',
        'creator.name as creator_user_name',
        'creator_profile.display_name as creator_display_name',
      ])
      .where('invite_links.link_key', '=', key)
      .executeTakeFirst();
  }

  async revoke(id: string, now: string): Promise<void> {
    await this.db
      .updateTable('invite_links')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Takes one use of a live link; false when it was revoked, expired or used up meanwhile. */
  async takeUse(trx: Transaction<Database>, id: string, now: string): Promise<boolean> {
    const result = await trx
      .updateTable('invite_links')
      .set((eb) => ({ uses: eb('uses', '+', 1) }))
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .whereRef('uses', '<', 'max_uses')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Makes the person a member with the role; false when they already were one. */
  addMember(
    trx: Transaction<Database>,
    member: { projectId: string; userId: string; role: MemberRole; now: string },
  ): Promise<boolean> {
    return addProjectMember(trx, member);
  }
}
