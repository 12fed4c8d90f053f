import type { Transaction } from 'kysely';
import type { Database, MemberRole } from '../../db/schema';

/**
 * Makes a person a project member with a role, in the caller's transaction (an invite link's
 * join, a granted access request); false when they already were one (their role stays).
 */
export async function addProjectMember(
  trx: Transaction<Database>,
  member: { projectId: string; userId: string; role: MemberRole; now: string },
): Promise<boolean> {
  const result = await trx
    .insertInto('project_members')
    .values({
      project_id: member.projectId,
      user_id: member.userId,
      role: member.role,
      created_at: member.now,
    })
    .onConflict((oc) => oc.columns(['project_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
