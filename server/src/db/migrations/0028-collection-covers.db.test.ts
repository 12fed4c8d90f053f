import { afterEach, describe, expect, it } from 'vitest';
import { buildCollection, buildUser } from '../../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database';
import { migratorOf } from '../migrate';

describe('migration 0028-collection-covers', () => {
  let database: TestDatabase;
  afterEach(async () => {
    await database.cleanup();
  });

  it('drops the cover columns going down and adds them, empty, coming up again', async () => {
    database = await createTestDatabase();
    const db = database.db;
    const owner = await buildUser(db);
    const collection = await buildCollection(db, owner.id, {
      cover_key: 'collection-covers/x/y',
      cover_type: 'image/png',
    });
    const covers = () =>
      db
        .selectFrom('collections')
        .select(['id', 'cover_key', 'cover_type'])
        .where('id', '=', collection.id)
        .execute();
    expect(await covers()).toEqual([
      { id: collection.id, cover_key: 'collection-covers/x/y', cover_type: 'image/png' },
    ]);

    const migrator = await migratorOf(db);
    expect((await migrator.migrateTo('0027-link-passwords-and-comments')).error).toBeUndefined();
    await expect(covers()).rejects.toThrow();
    // The collection itself stays.
    expect(
      await db.selectFrom('collections').select('name').where('id', '=', collection.id).execute(),
    ).toEqual([{ name: collection.name }]);

    expect((await migrator.migrateTo('0028-collection-covers')).error).toBeUndefined();
    expect(await covers()).toEqual([{ id: collection.id, cover_key: null, cover_type: null }]);
  });
});
