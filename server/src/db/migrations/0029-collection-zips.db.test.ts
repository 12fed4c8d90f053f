import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildCollection, buildCollectionLink, buildUser } from '../../../test/factories';
import { migrationSuite } from '../../../test/migration-test';

describe('migration 0029-collection-zips', () => {
  const { fresh } = migrationSuite('0029-collection-zips');

  it("removes a link's zips with the link, and no one else's", async () => {
    const { db } = await fresh();
    const owner = await buildUser(db);
    const collection = await buildCollection(db, owner.id);
    const now = new Date().toISOString();
    const one = await buildCollectionLink(db, collection.id, { download_enabled: 1 });
    const two = await buildCollectionLink(db, collection.id, { download_enabled: 1 });
    const zip = (linkId: string) => ({
      id: randomUUID(),
      link_id: linkId,
      status: 'ready' as const,
      done: 2,
      total: 2,
      items: '[]',
      object_key: 'collection-zips/x.zip',
      size: 5_000_000_000,
      created_at: now,
      updated_at: now,
      expires_at: now,
    });
    const kept = zip(two.id);
    await db
      .insertInto('collection_link_zips')
      .values([zip(one.id), kept])
      .execute();
    await db.deleteFrom('collection_links').where('id', '=', one.id).execute();
    const rows = await db.selectFrom('collection_link_zips').select(['id', 'size']).execute();
    // Sizes past 32 bits are kept.
    expect(rows.map((row) => ({ id: row.id, size: Number(row.size) }))).toEqual([
      { id: kept.id, size: 5_000_000_000 },
    ]);
  });
});
