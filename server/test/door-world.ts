import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema';
import { buildUser } from './factories';

/**
 * The world's doors into its project (issue 47): a live invite link (Commenter, 5 uses, a day),
 * and an open access request from someone outside it.
 */
export async function buildDoors(
  db: Kysely<Database>,
  project: { id: string; ownerId: string },
): Promise<{ inviteLink: { id: string; key: string }; accessRequest: { id: string } }> {
  const now = new Date().toISOString();
  const inviteLink = { id: randomUUID(), key: randomUUID().replaceAll('-', '').slice(0, 22) };
  await db
    .insertInto('invite_links')
    .values({
      id: inviteLink.id,
      project_id: project.id,
      link_key: inviteLink.key,
      creator_id: project.ownerId,
      name: 'Band chat',
      role: 'commenter',
      max_uses: 5,
      uses: 0,
      created_at: now,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      revoked_at: null,
    })
    .execute();
  const asker = await buildUser(db, { name: 'Asker' });
  const accessRequest = { id: randomUUID() };
  await db
    .insertInto('access_requests')
    .values({
      id: accessRequest.id,
      project_id: project.id,
      user_id: asker.id,
      note: null,
      status: 'open',
      created_at: now,
      decided_at: null,
      decided_by: null,
      granted_role: null,
    })
    .execute();
  return { inviteLink, accessRequest };
}
