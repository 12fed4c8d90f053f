import type { Kysely, Transaction } from 'kysely';
import type { AccessRequestsTable, Database, MemberRole } from '../../db/schema';
import { addProjectMember } from './join-sql';

/** An open request with what the owner's list shows of the person. */
export interface AccessRequestRow extends AccessRequestsTable {
  email: string;
  user_name: string | null;
  display_name: string | null;
  avatar_key: string | null;
  profile_updated_at: string | null;
}

/**
 * SQL for access requests: one open request per person per project (a partial unique index
 * holds it under concurrent asks), decided once by a guarded UPDATE.
 */
export class AccessRequestsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** The person's open request to the project, or their latest declined one. */
  async latest(
    projectId: string,
    userId: string,
  ): Promise<Pick<AccessRequestsTable, 'status' | 'decided_at'> | undefined> {
    return this.db
      .selectFrom('access_requests')
      .select(['status', 'decided_at'])
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .where('status', 'in', ['open', 'declined'])
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .executeTakeFirst();
  }

  async insert(row: AccessRequestsTable, trx: Transaction<Database>): Promise<void> {
    await trx.insertInto('access_requests').values(row).execute();
  }

  findById(id: string): Promise<AccessRequestsTable | undefined> {
    return this.db
      .selectFrom('access_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** A project's open requests, oldest first, with each person's names and avatar. */
  open(projectId: string): Promise<AccessRequestRow[]> {
    return this.db
      .selectFrom('access_requests')
      .innerJoin('users', 'users.id', 'access_requests.user_id')
      .leftJoin('profiles', 'profiles.user_id', 'access_requests.user_id')
      .selectAll('access_requests')
      .select([
        'users.email',
        'users.name as user_name',
        'profiles.display_name',
        'profiles.avatar_key',
        'profiles.updated_at as profile_updated_at',
      ])
      .where('access_requests.project_id', '=', projectId)
      .where('access_requests.status', '=', 'open')
      .orderBy('access_requests.created_at')
      .orderBy('access_requests.id')
      .execute();
  }

  /** Decides an open request; false when it was decided meanwhile. */
  async decide(
    trx: Transaction<Database>,
    id: string,
    decision: { status: 'granted' | 'declined'; by: string; role: MemberRole | null; now: string },
  ): Promise<boolean> {
    const result = await trx
      .updateTable('access_requests')
      .set({
        status: decision.status,
        decided_at: decision.now,
        decided_by: decision.by,
        granted_role: decision.role,
      })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Makes the person a member with the granted role; false when they already were one. */
  addMember(
    trx: Transaction<Database>,
    member: { projectId: string; userId: string; role: MemberRole; now: string },
  ): Promise<boolean> {
    return addProjectMember(trx, member);
  }
}
