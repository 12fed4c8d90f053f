import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './database';

describe('withStatementCache', () => {
  it('prepares a query once, and a fresh statement while the kept one is still streaming', async () => {
    const sqlite = new SqliteDatabase(':memory:');
    let prepared = 0;
    const original = sqlite.prepare.bind(sqlite);
    sqlite.prepare = (source: string) => {
      prepared++;
      return original(source);
    };
    const db = new Kysely<{ t: { n: number } }>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    });
    await sql`create table t (n integer)`.execute(db);
    for (let n = 0; n < 5; n++) await db.insertInto('t').values({ n }).execute();
    const before = prepared;
    for (let i = 0; i < 10; i++)
      expect(await db.selectFrom('t').select('n').where('n', '>', 2).execute()).toHaveLength(2);
    expect(prepared - before).toBe(1);

    // A statement still iterating is busy: the same SQL gets a statement of its own.
    const cached = withStatementCache(sqlite);
    const source = 'select n from t order by n';
    const rows = cached.prepare(source).iterate() as IterableIterator<{ n: number }>;
    expect(rows.next().value).toEqual({ n: 0 });
    expect(cached.prepare(source).all()).toHaveLength(5);
    expect([...rows].map((row) => row.n)).toEqual([1, 2, 3, 4]);
    await db.destroy();
  });
});
