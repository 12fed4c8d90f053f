import { describe, expect, it } from 'vitest';
import {
  buildCollection,
  buildCollectionItem,
  buildCollectionLink,
  buildProject,
  buildUser,
  buildVersion,
} from '../../../test/factories';
import type { ObjectStore } from '../../storage/object-store';
import { migrationSuite } from '../../../test/migration-test';

/** Versions without a stored file: the factory never touches the store for them. */
const noStore = undefined as unknown as ObjectStore;

describe('migration 0026-collection-links', () => {
  const { fresh } = migrationSuite('0026-collection-links');

  it('keeps keys unique and removes links and receipts with their collection', async () => {
    const { db } = await fresh();
    const owner = await buildUser(db);
    const collection = await buildCollection(db, owner.id);
    const collectionId = collection.id;
    const now = new Date().toISOString();
    await buildCollectionLink(db, collectionId, { hash: 'A'.repeat(22) });
    await expect(buildCollectionLink(db, collectionId, { hash: 'A'.repeat(22) })).rejects.toThrow();
    const second = await buildCollectionLink(db, collectionId, { hash: 'B'.repeat(22) });
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
