import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addMember, buildCollection, buildUser } from '../../../test/factories';
import { migrationSuite } from '../../../test/migration-test';

describe('migration 0030-collection-members', () => {
  const { fresh } = migrationSuite('0030-collection-members');

  it("removes a collection's members and invitations with it, and a person's rows with them", async () => {
    const { db } = await fresh();
    const owner = await buildUser(db);
    const [ana, ben] = [await buildUser(db), await buildUser(db)];
    const gone = await buildCollection(db, owner.id);
    const kept = await buildCollection(db, owner.id);
    for (const collection of [gone, kept])
      for (const person of [ana, ben])
        await addMember(db, { collectionId: collection.id }, person.id, 'viewer');
    const now = new Date().toISOString();
    const invitation = (collectionId: string) => ({
      id: randomUUID(),
      project_id: null,
      repo_id: null,
      collection_id: collectionId,
      email: `${randomUUID()}@example.com`,
      role: 'editor' as const,
      token_hash: randomUUID(),
      inviter_id: owner.id,
      created_at: now,
      sent_at: now,
      expires_at: now,
      accepted_at: null,
      accepted_by: null,
      revoked_at: null,
    });
    const keptInvitation = invitation(kept.id);
    await db
      .insertInto('invitations')
      .values([invitation(gone.id), keptInvitation])
      .execute();
    // One membership per person and collection.
    await expect(addMember(db, { collectionId: kept.id }, ana.id, 'editor')).rejects.toThrow();

    await db.deleteFrom('collections').where('id', '=', gone.id).execute();
    await db.deleteFrom('users').where('id', '=', ben.id).execute();
    const rows = await db
      .selectFrom('collection_members')
      .select(['collection_id', 'user_id'])
      .execute();
    expect(rows).toEqual([{ collection_id: kept.id, user_id: ana.id }]);
    const invitations = await db.selectFrom('invitations').select('id').execute();
    expect(invitations.map((row) => row.id)).toEqual([keptInvitation.id]);
  });
});
