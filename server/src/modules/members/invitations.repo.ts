import { sql, type Kysely } from 'kysely';
import type { Database, InvitationsTable } from '../../db/schema';
import { invitationTarget, placeOf, targetColumn, type Target } from './member-targets';

/** An invitation with what its link page and email need. */
export interface InvitationRow extends InvitationsTable {
  target_name: string;
  inviter_email: string | null;
  inviter_user_name: string | null;
  inviter_display_name: string | null;
}

type TokenFields = Pick<InvitationsTable, 'token_hash' | 'sent_at' | 'expires_at'>;

/**
 * SQL for invitations by email: pending ones, their links (only a token's hash is kept), and
 * using one. Who may call these is the service's business (through the access policy).
 */
export class InvitationsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** The accounts with this (lower-case) email address. */
  async usersWithEmail(email: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where(sql<string>`lower(users.email)`, '=', email)
      .execute();
    return rows.map((r) => r.id);
  }

  /** What an invitation email names its inviter by. */
  async person(
    userId: string,
  ): Promise<{ email: string; user_name: string | null; display_name: string | null } | undefined> {
    return this.db
      .selectFrom('users')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .select(['users.email', 'users.name as user_name', 'profiles.display_name'])
      .where('users.id', '=', userId)
      .executeTakeFirst();
  }

  /** Pending: not accepted, not revoked, not expired; oldest first. */
  pendingInvitations(target: Target, now: string): Promise<InvitationsTable[]> {
    return this.pending(target, now).selectAll().orderBy('created_at').orderBy('id').execute();
  }

  async countPending(target: Target, now: string): Promise<number> {
    const row = await this.pending(target, now)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  findPendingFor(
    target: Target,
    email: string,
    now: string,
  ): Promise<InvitationsTable | undefined> {
    return this.pending(target, now).selectAll().where('email', '=', email).executeTakeFirst();
  }

  async insertInvitation(row: InvitationsTable): Promise<void> {
    await this.db.insertInto('invitations').values(row).execute();
  }

  /** Takes back an invitation whose email could not be sent. */
  async deleteInvitation(id: string): Promise<void> {
    await this.db.deleteFrom('invitations').where('id', '=', id).execute();
  }

  findInvitation(id: string): Promise<InvitationsTable | undefined> {
    return this.db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The invitation a link's token hash opens, with its target's name and its inviter. */
  findByTokenHash(tokenHash: string): Promise<InvitationRow | undefined> {
    return this.db
      .selectFrom('invitations')
      .leftJoin('projects', 'projects.id', 'invitations.project_id')
      .leftJoin('repos', 'repos.id', 'invitations.repo_id')
      .leftJoin('collections', 'collections.id', 'invitations.collection_id')
      .leftJoin('users as inviter', 'inviter.id', 'invitations.inviter_id')
      .leftJoin('profiles as inviter_profile', 'inviter_profile.user_id', 'invitations.inviter_id')
      .selectAll('invitations')
      .select([
        sql<string>`coalesce(projects.name, repos.name, collections.name)`.as('target_name'),
        'inviter.email as inviter_email',
        'inviter.name as inviter_user_name',
        'inviter_profile.display_name as inviter_display_name',
      ])
      .where('invitations.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /** A new link for a pending invitation: the old token stops working at once. */
  async replaceToken(id: string, next: TokenFields): Promise<boolean> {
    const result = await this.db
      .updateTable('invitations')
      .set(next)
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Puts back the link an unsent resend replaced. */
  async restoreToken(id: string, previous: TokenFields): Promise<void> {
    await this.db.updateTable('invitations').set(previous).where('id', '=', id).execute();
  }

  async revokeInvitation(id: string, now: string): Promise<void> {
    await this.db
      .updateTable('invitations')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /**
   * Uses the invitation and gives its role, in the caller's transaction: the invitation is marked
   * accepted only while it is still pending (so two racing accepts cannot both win), then the
   * person becomes a member with the invited role (replacing a role they had). The owner (as the
   * access policy found them) stays the owner and gets no member row. False when the invitation
   * was no longer valid.
   */
  async acceptInvitation(
    invitation: InvitationsTable,
    userId: string,
    options: { isOwner: boolean; now: string },
    trx: Kysely<Database>,
  ): Promise<boolean> {
    const { now } = options;
    const used = await trx
      .updateTable('invitations')
      .set({ accepted_at: now, accepted_by: userId })
      .where('id', '=', invitation.id)
      .where('token_hash', '=', invitation.token_hash)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) === 0) return false;
    if (options.isOwner) return true;
    const role = invitation.role;
    const target = invitationTarget(invitation);
    if (!target) return false;
    const { members, column } = placeOf(target.kind);
    await trx
      .insertInto(members)
      // `column` is typed as the project's; it names the target's own column.
      .values({ [column]: target.id, user_id: userId, role, created_at: now })
      .onConflict((oc) => oc.columns([column, 'user_id']).doUpdateSet({ role }))
      .execute();
    return true;
  }

  /** The target's invitations still pending: not accepted, not revoked, not expired. */
  private pending(target: Target, now: string) {
    return this.db
      .selectFrom('invitations')
      .where(targetColumn(target.kind), '=', target.id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now);
  }
}
