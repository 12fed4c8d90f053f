import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { buildProject, buildUser, buildVersion } from '../../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database';
import type { CollectionItemsTable } from '../schema';
import type { ObjectStore } from '../../storage/object-store';
import { migratorOf } from '../migrate';

/** Versions without a stored file: the factory never touches the store for them. */
const noStore = undefined as unknown as ObjectStore;

describe('migration 0025-collections', () => {
  let database: TestDatabase;
  afterEach(async () => {
    await database.cleanup();
  });

  async function setting() {
    database = await createTestDatabase();
    const db = database.db;
    const owner = await buildUser(db);
    const { project, branch } = await buildProject(db, owner.id);
    const on = { projectId: project.id, branchId: branch.id };
    const v1 = await buildVersion({ db, storage: noStore }, on);
    const v2 = await buildVersion({ db, storage: noStore }, on);
    const collectionId = randomUUID();
    const now = new Date().toISOString();
    await db
      .insertInto('collections')
      .values({
        id: collectionId,
        owner_id: owner.id,
        name: 'Mixes',
        description: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const item = (
      position: number,
      target: Partial<Pick<CollectionItemsTable, 'version_id' | 'branch_id'>>,
    ): CollectionItemsTable => ({
      id: randomUUID(),
      collection_id: collectionId,
      position,
      version_id: null,
      branch_id: null,
      bounce_id: null,
      added_by: owner.id,
      created_at: now,
      ...target,
    });
    const insert = (row: CollectionItemsTable) =>
      db.insertInto('collection_items').values(row).execute();
    const items = () =>
      db
        .selectFrom('collection_items')
        .select(['id', 'position'])
        .where('collection_id', '=', collectionId)
        .orderBy('position')
        .execute();
    return { db, owner, project, branch, v1, v2, collectionId, item, insert, items };
  }

  it('migrates down and up again', async () => {
    database = await createTestDatabase();
    const migrator = await migratorOf(database.db);
    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect((await migrator.migrateTo('0025-collections')).error).toBeUndefined();
  });

  it('holds exactly one target per item, once per collection, one item per position', async () => {
    const { v1, v2, branch, item, insert, items } = await setting();
    await insert(item(0, { version_id: v1.id }));
    await insert(item(1, { branch_id: branch.id }));
    // Neither, or both.
    await expect(insert(item(2, {}))).rejects.toThrow();
    await expect(insert(item(2, { version_id: v2.id, branch_id: branch.id }))).rejects.toThrow();
    // The same version, the same branch, a taken position.
    await expect(insert(item(2, { version_id: v1.id }))).rejects.toThrow();
    await expect(insert(item(2, { branch_id: branch.id }))).rejects.toThrow();
    await expect(insert(item(1, { version_id: v2.id }))).rejects.toThrow();
    await insert(item(2, { version_id: v2.id }));
    expect((await items()).map((row) => row.position)).toEqual([0, 1, 2]);
  });

  it('removes items with their version, their branch, their collection and its owner', async () => {
    const { db, owner, v1, v2, branch, item, insert, items, collectionId } = await setting();
    const first = item(0, { version_id: v1.id });
    await insert(first);
    await insert(item(1, { version_id: v2.id }));
    await insert(item(2, { branch_id: branch.id }));
    await db.deleteFrom('versions').where('id', '=', v2.id).execute();
    expect((await items()).map((row) => row.position)).toEqual([0, 2]);
    await db.deleteFrom('branches').where('id', '=', branch.id).execute();
    expect(await items()).toEqual([]);

    const other = await buildProject(db, owner.id);
    const v3 = await buildVersion(
      { db, storage: noStore },
      { projectId: other.project.id, branchId: other.branch.id },
    );
    await insert(item(0, { version_id: v3.id }));
    await db.deleteFrom('collections').where('id', '=', collectionId).execute();
    expect(await db.selectFrom('collection_items').selectAll().execute()).toEqual([]);

    // The owner's account goes with their collections.
    const again = randomUUID();
    const now = new Date().toISOString();
    await db
      .insertInto('collections')
      .values({
        id: again,
        owner_id: owner.id,
        name: 'Again',
        description: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto('collection_items')
      .values({ ...item(0, { version_id: v3.id }), collection_id: again })
      .execute();
    await db.deleteFrom('users').where('id', '=', owner.id).execute();
    expect(await db.selectFrom('collections').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('collection_items').selectAll().execute()).toEqual([]);
  });
});
