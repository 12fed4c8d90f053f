import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../../../test/test-database';
import { migrateToLatest, migratorOf } from '../migrate';

describe(`migration 0008-account-security (${testDialect()})`, () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.cleanup();
  });

  it('turns desktop sign-ins made before it into listed families that keep their state', async () => {
    const migrator = await migratorOf(database.db);
    // Back to just after 0008 (later migrations come and go), then before it.
    expect((await migrator.migrateTo('0008-account-security')).error).toBeUndefined();
    const down = await migrator.migrateDown();
    expect(down.error).toBeUndefined();
    expect(down.results?.[0]?.migrationName).toBe('0008-account-security');

    const db = database.db;
    await db
      .insertInto('users')
      .values({
        id: 'u1',
        name: '',
        email: 'old@example.com',
        email_verified: testDialect() === 'postgres' ? true : 1,
        image: null,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    const token = (
      hash: string,
      family: string,
      created: string,
      expires: string,
      extra: { used_at?: string; revoked_at?: string } = {},
    ) => ({
      token_hash: hash,
      family_id: family,
      user_id: 'u1',
      created_at: created,
      expires_at: expires,
      used_at: extra.used_at ?? null,
      revoked_at: extra.revoked_at ?? null,
    });
    await db
      .insertInto('refresh_tokens')
      .values([
        token('a1', 'live', '2026-01-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z', {
          used_at: '2026-01-10T00:00:00.000Z',
        }),
        token('a2', 'live', '2026-01-10T00:00:00.000Z', '2026-03-11T00:00:00.000Z'),
        token('b1', 'ended', '2026-01-05T00:00:00.000Z', '2026-03-06T00:00:00.000Z', {
          revoked_at: '2026-01-06T00:00:00.000Z',
        }),
      ])
      .execute();

    expect((await migrateToLatest(db))[0]).toBe('0008-account-security');
    const families = await db.selectFrom('desktop_families').selectAll().orderBy('id').execute();
    expect(families).toEqual([
      {
        id: 'ended',
        user_id: 'u1',
        name: 'Desktop app',
        created_at: '2026-01-05T00:00:00.000Z',
        last_used_at: '2026-01-05T00:00:00.000Z',
        expires_at: '2026-03-06T00:00:00.000Z',
        revoked_at: '2026-01-06T00:00:00.000Z',
      },
      {
        id: 'live',
        user_id: 'u1',
        name: 'Desktop app',
        created_at: '2026-01-02T00:00:00.000Z',
        last_used_at: '2026-01-10T00:00:00.000Z',
        expires_at: '2026-03-11T00:00:00.000Z',
        revoked_at: null,
      },
    ]);
    expect(await db.selectFrom('magic_code_failures').selectAll().execute()).toEqual([]);
  });
});
