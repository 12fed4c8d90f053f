import { afterEach, expect, it } from 'vitest';
import { migratorOf } from '../src/db/migrate';
import { createTestDatabase, type TestDatabase } from './test-database';

/**
 * What every migration's test file starts with: a fresh database per test (removed after it) and
 * the test that the migration `name` goes down and comes up again. Call inside its `describe`;
 * `fresh()` gives a test its migrated database.
 */
export function migrationSuite(name: string) {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.cleanup();
    database = undefined;
  });
  const fresh = async (): Promise<TestDatabase> => {
    database = await createTestDatabase();
    return database;
  };
  it('migrates down and up again', async () => {
    const migrator = await migratorOf((await fresh()).db);
    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect((await migrator.migrateTo(name)).error).toBeUndefined();
  });
  return { fresh };
}
