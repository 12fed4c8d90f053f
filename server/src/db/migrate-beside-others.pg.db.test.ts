import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { adminQuery } from '../../test/test-database';
import { openDatabase } from './database';
import { migrateToLatest } from './migrate';

const name = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;

/**
 * A database shared with others (other apps' schemas, parallel test runs): schemas made and
 * dropped beside Takes' own while it migrates never fail its run, and its migrations look at
 * its own schema only.
 */
describe('migrations in a database other schemas come and go in', () => {
  it('migrate while other schemas are made and dropped, and a second run finds nothing to do', async () => {
    const url = process.env.TEST_DATABASE_URL ?? '';
    let churning = true;
    const dropped: string[] = [];
    // Someone else's schemas, each with a table, made and dropped as fast as the server goes.
    const churn = (async () => {
      while (churning) {
        const other = name('other');
        await adminQuery(
          url,
          `create schema ${other}; create table ${other}.t (id serial primary key)`,
        );
        await adminQuery(url, `drop schema ${other} cascade`);
        dropped.push(other);
      }
    })();
    const ours: string[] = [];
    try {
      for (let run = 0; run < 4; run++) {
        const schema = name('mig');
        ours.push(schema);
        await adminQuery(url, `create schema ${schema}`);
        const handle = openDatabase(
          { dialect: 'postgres', url },
          { searchPath: schema, poolSize: 2 },
        );
        try {
          const applied = await migrateToLatest(handle.db);
          expect(applied.length).toBeGreaterThan(20);
          expect(await migrateToLatest(handle.db)).toEqual([]);
          const { rows } = await sql<{ n: number }>`
            select count(*)::int as n from pg_catalog.pg_class c
            join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
            where ns.nspname = ${schema} and c.relname = 'kysely_migration'`.execute(handle.db);
          expect(rows[0]?.n).toBe(1);
        } finally {
          await handle.destroy();
        }
      }
    } finally {
      churning = false;
      await churn;
      for (const schema of ours) await adminQuery(url, `drop schema if exists ${schema} cascade`);
    }
    // The other schemas really came and went while the runs went on.
    expect(dropped.length).toBeGreaterThan(10);
  });
});
