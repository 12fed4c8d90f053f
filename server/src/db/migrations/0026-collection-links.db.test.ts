import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildCollection,
  buildCollectionItem,
  buildProject,
  buildUser,
  buildVersion,
} from '../../../test/factories';
import type { ObjectStore } from '../../storage/object-store';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database';
import type { CollectionLinksTable } from '../schema';
import { migratorOf } from '../migrate';

/** Versions without a stored file: the factory never touches the store for them. */
const noStore = undefined as unknown as ObjectStore;

describe('migration 0026-collection-links', () => {
  let database: TestDatabase;
  afterEach(async () => {
    await database.cleanup();
  });

  it('migrates down and up again', async () => {
    database = await createTestDatabase();
    const migrator = await migratorOf(database.db);
    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect((await migrator.migrateTo('0026-collection-links')).error).toBeUndefined();
  });

  it('keeps keys unique and removes links and receipts with their collection', async () => {
    database = await createTestDatabase();
    const db = database.db;
    const owner = await buildUser(db);
    const collection = await buildCollection(db, owner.id);
    const collectionId = collection.id;
    const now = new Date().toISOString();
    const link = (hash: string): CollectionLinksTable => ({
      id: randomUUID(),
      collection_id: collectionId,
      hash,
      name: 'Label',
      recipient_name: null,
      recipient_email: null,
      expires_at: null,
      download_enabled: 0,
      password_hash: null,
      revoked_at: null,
      created_at: now,
      emailed_at: null,
      first_played_at: null,
    });
    await db
      .insertInto('collection_links')
      .values(link('A'.repeat(22)))
      .execute();
    await expect(
      db
        .insertInto('collection_links')
        .values(link('A'.repeat(22)))
        .execute(),
    ).rejects.toThrow();
    const second = link('B'.repeat(22));
    await db.insertInto('collection_links').values(second).execute();
    const { project, branch } = await buildProject(db, owner.id);
    const version = await buildVersion(
      { db, storage: noStore },
      { projectId: project.id, branchId: branch.id },
    );
    const itemId = (await buildCollectionItem(db, collection, { version_id: version.id })).id;
    const receipt = {
      link_id: second.id,
      item_id: itemId,
      plays_started: 1,
      plays_30s: 0,
      plays_90: 0,
      downloads: 0,
      last_activity_at: now,
    };
    await db.insertInto('collection_link_receipts').values(receipt).execute();
    // One row per link and item.
    await expect(
      db.insertInto('collection_link_receipts').values(receipt).execute(),
    ).rejects.toThrow();
    await db.deleteFrom('collections').where('id', '=', collectionId).execute();
    expect(await db.selectFrom('collection_links').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('collection_link_receipts').selectAll().execute()).toEqual([]);
  });
});
