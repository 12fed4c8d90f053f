import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { adminQuery } from '../../test/test-database';
import { openDatabase, type DatabaseHandle } from './database';
import { MAX_PER_CONNECTION, PLAN_EACH_TIME } from './pg-prepared';

/**
 * Repeated query texts run as named prepared statements on each PostgreSQL connection: parsed once
 * per connection, dropped when the schema changes, bounded per connection, off by configuration.
 * One pooled connection, so `pg_prepared_statements` (which is per session) shows what it holds.
 */
const url = process.env.TEST_DATABASE_URL ?? '';
interface Tables {
  t: { id: number; name: string; loud?: boolean; quiet?: boolean };
}

let open: { handle: DatabaseHandle; schema: string } | undefined;

async function openOne(preparedStatements = true): Promise<Kysely<Tables>> {
  const schema = `t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  await adminQuery(url, `create schema ${schema}`);
  const handle = openDatabase(
    { dialect: 'postgres', url, preparedStatements },
    { searchPath: schema, poolSize: 1 },
  );
  open = { handle, schema };
  const db = handle.db as unknown as Kysely<Tables>;
  await sql`create table t (id integer primary key, name text not null)`.execute(db);
  await db
    .insertInto('t')
    .values([
      { id: 1, name: 'one' },
      { id: 2, name: 'two' },
    ])
    .execute();
  return db;
}

async function statements(db: Kysely<Tables>): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`
    select statement from pg_prepared_statements where name like 'takes\\_%'`.execute(db);
  return rows.map((row) => row.statement);
}

afterEach(async () => {
  if (!open) return;
  await open.handle.destroy();
  await adminQuery(url, `drop schema if exists ${open.schema} cascade`);
  open = undefined;
});

describe('named prepared statements on PostgreSQL', () => {
  it('names a text seen twice, once per connection, and keeps answering right', async () => {
    const db = await openOne();
    const byId = (id: number) => db.selectFrom('t').select('name').where('id', '=', id);
    expect(await byId(1).execute()).toEqual([{ name: 'one' }]);
    expect(await statements(db)).toEqual([]);
    for (let i = 0; i < 8; i++)
      expect(await byId(1 + (i % 2)).execute()).toEqual([{ name: i % 2 ? 'two' : 'one' }]);
    const text = byId(1).compile().sql;
    expect((await statements(db)).filter((s) => s === text)).toHaveLength(1);
    // A statement marked PLAN_EACH_TIME is planned with its values every time.
    const like = (q: string) =>
      db.selectFrom('t').select('id').where('name', 'like', q).modifyEnd(sql.raw(PLAN_EACH_TIME));
    for (const q of ['%n%', '%w%', '%n%']) await like(q).execute();
    expect(await like('t%').execute()).toEqual([{ id: 2 }]);
    expect(await statements(db)).not.toContain(like('').compile().sql);
    // A transaction's statements prepare too, and the connection's state survives its end.
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('t').set({ name: 'uno' }).where('id', '=', 1).execute();
      await trx.updateTable('t').set({ name: 'one' }).where('id', '=', 1).execute();
    });
    expect(await byId(1).execute()).toEqual([{ name: 'one' }]);
  });

  it('drops its statements when the schema changes, also inside a migration transaction', async () => {
    const db = await openOne();
    const query = () => db.selectFrom('t').selectAll().where('id', '=', 1);
    const all = () => query().execute();
    await all();
    await all();
    expect(await statements(db)).toContain(query().compile().sql);
    // Without dropping them PostgreSQL refuses: "cached plan must not change result type".
    await sql`alter table t add column loud boolean not null default false`.execute(db);
    expect(await all()).toEqual([{ id: 1, name: 'one', loud: false }]);
    await all();
    await db.transaction().execute(async (trx) => {
      await trx.selectFrom('t').selectAll().where('id', '=', 1).execute();
      await sql`alter table t add column quiet boolean not null default true`.execute(trx);
      expect(await trx.selectFrom('t').selectAll().where('id', '=', 1).execute()).toEqual([
        { id: 1, name: 'one', loud: false, quiet: true },
      ]);
    });
    expect(await all()).toEqual([{ id: 1, name: 'one', loud: false, quiet: true }]);
  });

  it(`keeps at most ${MAX_PER_CONNECTION} statements on a connection`, async () => {
    const db = await openOne();
    for (let round = 0; round < 2; round++)
      for (let n = 0; n < MAX_PER_CONNECTION + 50; n++)
        await sql`select ${sql.lit(n)} as n, name from t where id = ${1}`.execute(db);
    expect(await statements(db)).toHaveLength(MAX_PER_CONNECTION);
    expect(
      (
        await sql<{
          n: number;
        }>`select ${sql.lit(MAX_PER_CONNECTION + 10)} as n, name from t where id = ${2}`.execute(db)
      ).rows,
    ).toEqual([{ n: MAX_PER_CONNECTION + 10, name: 'two' }]);
  });

  it('prepares nothing when DATABASE_PREPARED_STATEMENTS is false', async () => {
    const db = await openOne(false);
    for (let i = 0; i < 5; i++)
      await db.selectFrom('t').select('name').where('id', '=', 1).execute();
    expect(await statements(db)).toEqual([]);
  });
});
