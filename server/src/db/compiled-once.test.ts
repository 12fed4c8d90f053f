import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CompiledOnce } from './compiled-once';

interface Tables {
  people: { id: string; name: string; owner: string };
}

describe('CompiledOnce', () => {
  it('builds once and runs with each call’s arguments, also one used twice', async () => {
    const db = new Kysely<Tables>({
      dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }),
    });
    await sql`create table people (id text, name text, owner text)`.execute(db);
    await db
      .insertInto('people')
      .values([
        { id: 'a', name: 'Ann', owner: 'x' },
        { id: 'b', name: 'Bo', owner: 'y' },
        { id: 'c', name: 'Cy', owner: 'x' },
      ])
      .execute();
    let builds = 0;
    const query = new CompiledOnce(
      db as unknown as Kysely<never>,
      2,
      (owner: string, id: string) => {
        builds++;
        return db
          .selectFrom('people')
          .select(['name', sql<boolean>`owner = ${owner}`.as('mine')])
          .where((eb) => eb.or([eb('owner', '=', owner), eb('id', '=', id)]))
          .orderBy('name');
      },
    );
    expect(await query.execute('x', 'b')).toEqual([
      { name: 'Ann', mine: 1 },
      { name: 'Bo', mine: 0 },
      { name: 'Cy', mine: 1 },
    ]);
    expect(await query.execute('y', 'zz')).toEqual([{ name: 'Bo', mine: 1 }]);
    expect(await query.executeTakeFirst('nobody', 'c')).toEqual({ name: 'Cy', mine: 0 });
    expect(builds).toBe(1);

    // An argument written into the SQL text, or left out, is refused.
    const inlined = new CompiledOnce(db as unknown as Kysely<never>, 1, (id: string) =>
      db.selectFrom('people').select('name').where('id', '=', sql.lit(id)),
    );
    await expect(inlined.execute('a')).rejects.toThrow('written into the SQL');
    const unused = new CompiledOnce(
      db as unknown as Kysely<never>,
      2,
      (id: string, _other: string) => db.selectFrom('people').select('name').where('id', '=', id),
    );
    await expect(unused.execute('a', 'b')).rejects.toThrow('Argument 1 is not a parameter');
    await db.destroy();
  });
});
