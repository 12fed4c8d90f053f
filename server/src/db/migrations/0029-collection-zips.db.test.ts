import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCollection, buildUser } from '../../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database';
import { migratorOf } from '../migrate';

describe('migration 0029-collection-zips', () => {
  let database: TestDatabase;
  afterEach(async () => {
    await database.cleanup();
  });

  it('migrates down and up again', async () => {
    database = await createTestDatabase();
    const migrator = await migratorOf(database.db);
    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect((await migrator.migrateTo('0029-collection-zips')).error).toBeUndefined();
  });

  it("removes a link's zips with the link, and no one else's", async () => {
    database = await createTestDatabase();
    const db = database.db;
    const owner = await buildUser(db);
    const collection = await buildCollection(db, owner.id);
    const now = new Date().toISOString();
    const link = (hash: string) => ({
      id: randomUUID(),
      collection_id: collection.id,
      hash,
      name: 'Label',
      recipient_name: null,
      recipient_email: null,
      expires_at: null,
      download_enabled: 1,
      password_hash: null,
      revoked_at: null,
      created_at: now,
    });
    const [one, two] = [link('A'.repeat(22)), link('B'.repeat(22))];
    await db.insertInto('collection_links').values([one, two]).execute();
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
