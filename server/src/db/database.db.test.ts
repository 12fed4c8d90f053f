import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../../test/test-database';
import { migrateToLatest } from './migrate';
import { parsePgTimestamp } from './database';

describe(`database (${testDialect()})`, () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.cleanup();
  });

  it('is migrated, and migrating again changes nothing', async () => {
    expect(await migrateToLatest(database.db)).toEqual([]);
    const rows = await database.db.selectFrom('jobs').selectAll().execute();
    expect(rows).toEqual([]);
  });

  it('migrates a database of its own while another one beside it already has the migration tables', async () => {
    // On PostgreSQL both live in one database as schemas: Kysely must look in its own schema only.
    const second = await createTestDatabase();
    try {
      expect(await migrateToLatest(second.db)).toEqual([]);
      expect(await second.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
    } finally {
      await second.cleanup();
    }
  });

  it('reads timestamps back as the same ISO-8601 strings it wrote', async () => {
    const at = '2026-11-21T20:09:20.123Z';
    await database.db
      .insertInto('jobs')
      .values({
        id: 'j1',
        name: 'x',
        payload: '{}',
        state: 'queued',
        max_attempts: 1,
        retry_delay_ms: 0,
        run_at: at,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const row = await database.db.selectFrom('jobs').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ run_at: at, created_at: at, attempts: 0, lease_expires_at: null });
    const due = await database.db
      .selectFrom('jobs')
      .select('id')
      .where('run_at', '<=', '2026-11-21T20:09:21.000Z')
      .execute();
    expect(due).toEqual([{ id: 'j1' }]);
  });

  it('rejects a job state outside the allowed set', async () => {
    const at = new Date().toISOString();
    await expect(
      database.db
        .insertInto('jobs')
        .values({
          id: 'j2',
          name: 'x',
          payload: '{}',
          state: 'bogus' as 'queued',
          max_attempts: 1,
          retry_delay_ms: 0,
          run_at: at,
          created_at: at,
          updated_at: at,
        })
        .execute(),
    ).rejects.toThrow();
  });

  if (testDialect() === 'sqlite') {
    it('runs SQLite with WAL, full sync, foreign keys and a busy timeout', async () => {
      const pragma = async (name: string) =>
        Object.values(
          (await sql.raw(`pragma ${name}`).execute(database.db)).rows[0] as object,
        )[0] as unknown;
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('synchronous')).toBe(2);
      expect(await pragma('foreign_keys')).toBe(1);
      expect(await pragma('busy_timeout')).toBe(10000);
    });
  }
});

describe('parsePgTimestamp', () => {
  it('turns PostgreSQL timestamptz text into ISO-8601 UTC', () => {
    expect(parsePgTimestamp('2026-11-21 20:09:20.123+00')).toBe('2026-11-21T20:09:20.123Z');
    expect(parsePgTimestamp('2026-11-21 20:09:20.12+00')).toBe('2026-11-21T20:09:20.120Z');
    expect(parsePgTimestamp('2026-11-21 20:09:20.5+00')).toBe('2026-11-21T20:09:20.500Z');
    expect(parsePgTimestamp('2026-11-21 20:09:20.123999+00')).toBe('2026-11-21T20:09:20.123Z');
    expect(parsePgTimestamp('2026-11-21 20:09:20+00')).toBe('2026-11-21T20:09:20.000Z');
    expect(parsePgTimestamp('2026-11-21 21:09:20+01')).toBe('2026-11-21T20:09:20.000Z');
    expect(parsePgTimestamp('2026-11-21 20:09:20.123456+05:30')).toBe('2026-11-21T14:39:20.123Z');
  });
});
