import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database';
import { migrateToLatest, migratorOf } from '../migrate';

describe('migration 0012-rate-limit-expiry', () => {
  let database: TestDatabase;
  afterEach(async () => {
    await database.cleanup();
  });

  it('gives the windows counted before it an end a day after they opened', async () => {
    database = await createTestDatabase();
    const migrator = await migratorOf(database.db);
    const down = await migrator.migrateTo('0012-rate-limit-expiry');
    expect(down.error).toBeUndefined();
    const back = await migrator.migrateDown();
    expect(back.error).toBeUndefined();
    await sql`insert into rate_limits (key, window_start, count) values ('sign-in:ip:203.0.113.9', ${'2026-11-20T10:00:00.000Z'}, 4)`.execute(
      database.db,
    );

    await migrateToLatest(database.db);
    const row = await database.db
      .selectFrom('rate_limits')
      .select(['key', 'count', 'expires_at'])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      key: 'sign-in:ip:203.0.113.9',
      count: 4,
      expires_at: '2026-11-21T10:00:00.000Z',
    });
  });
});
