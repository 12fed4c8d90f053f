import { afterEach, expect, it } from 'vitest';
import { migratorOf } from '../src/db/migrate';
import { migrations } from '../src/db/migrations';
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
  it('migrates down past it and up again', async () => {
    const names = Object.keys(migrations);
    const index = names.indexOf(name);
    expect(index).toBeGreaterThan(0);
    const migrator = await migratorOf((await fresh()).db);
    // Down through every later migration and this one, then up to the newest again.
    expect((await migrator.migrateTo(names[index - 1] ?? '')).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
  });
  return { fresh };
}
