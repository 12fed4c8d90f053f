import { afterEach, describe, expect, it } from 'vitest';
import { buildProject, buildUser, buildVersion } from '../../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database';
import type { ObjectStore } from '../../storage/object-store';
import { migrateToLatest, migratorOf } from '../migrate';

/** Versions without a stored file: the factory never touches the store for them. */
const noStore = undefined as unknown as ObjectStore;

describe('migration 0024-branch-version-count', () => {
  let database: TestDatabase;
  afterEach(async () => {
    await database.cleanup();
  });

  /** Each branch's kept count beside the versions counted, for every branch. */
  async function countsOf(db: TestDatabase['db']) {
    const rows = await db
      .selectFrom('branches')
      .select((eb) => [
        'branches.id',
        'branches.version_count as kept',
        eb
          .selectFrom('versions')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('versions.branch_id', '=', 'branches.id')
          .as('counted'),
      ])
      .execute();
    return new Map(rows.map((row) => [row.id, { kept: row.kept, counted: Number(row.counted) }]));
  }

  /** A project's kept branch count beside its branches counted. */
  async function branchCountOf(db: TestDatabase['db'], projectId: string) {
    const row = await db
      .selectFrom('projects')
      .select((eb) => [
        'projects.branch_count as kept',
        eb
          .selectFrom('branches')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('branches.project_id', '=', 'projects.id')
          .as('counted'),
      ])
      .where('projects.id', '=', projectId)
      .executeTakeFirstOrThrow();
    return { kept: row.kept, counted: Number(row.counted) };
  }

  it('counts the versions branches, and the branches projects, already had', async () => {
    database = await createTestDatabase();
    const migrator = await migratorOf(database.db);
    expect((await migrator.migrateTo('0024-branch-version-count')).error).toBeUndefined();
    expect((await migrator.migrateDown()).error).toBeUndefined();
    const deps = { db: database.db, storage: noStore };
    const owner = await buildUser(database.db);
    const { project, branch } = await buildProject(database.db, owner.id);
    for (let i = 0; i < 3; i++)
      await buildVersion(deps, { projectId: project.id, branchId: branch.id });
    const empty = await buildProject(database.db, owner.id);

    await migrateToLatest(database.db);
    const counts = await countsOf(database.db);
    expect(counts.get(branch.id)).toEqual({ kept: 3, counted: 3 });
    expect(counts.get(empty.branch.id)).toEqual({ kept: 0, counted: 0 });
    expect(await branchCountOf(database.db, project.id)).toEqual({ kept: 1, counted: 1 });
  });

  it('keeps the count through inserts, deletes, moves, concurrent writers and cascades', async () => {
    database = await createTestDatabase();
    const db = database.db;
    const deps = { db, storage: noStore };
    const owner = await buildUser(db);
    const { project, branch: main } = await buildProject(db, owner.id);
    const side = { ...main, id: crypto.randomUUID(), name: 'side', is_default: 0 };
    const { version_count: _count, ...sideRow } = side;
    await db.insertInto('branches').values(sideRow).execute();
    expect(await branchCountOf(db, project.id)).toEqual({ kept: 2, counted: 2 });
    const onMain = { projectId: project.id, branchId: main.id };

    const made = [];
    for (let i = 0; i < 4; i++) made.push(await buildVersion(deps, onMain));
    await buildVersion(deps, { projectId: project.id, branchId: side.id });
    expect(await countsOf(db)).toEqual(
      new Map([
        [main.id, { kept: 4, counted: 4 }],
        [side.id, { kept: 1, counted: 1 }],
      ]),
    );

    await db.deleteFrom('versions').where('id', '=', made[0]!.id).execute();
    await db
      .updateTable('versions')
      .set({ branch_id: side.id, version_number: 50 })
      .where('id', '=', made[1]!.id)
      .execute();
    // An update that does not move the version changes nothing.
    await db
      .updateTable('versions')
      .set({ message: 'Louder' })
      .where('id', '=', made[2]!.id)
      .execute();
    expect(await countsOf(db)).toEqual(
      new Map([
        [main.id, { kept: 2, counted: 2 }],
        [side.id, { kept: 2, counted: 2 }],
      ]),
    );

    // Writers at once (several connections on PostgreSQL): no count lost.
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        buildVersion(deps, onMain, { overrides: { version_number: 100 + i } }),
      ),
    );
    expect((await countsOf(db)).get(main.id)).toEqual({ kept: 14, counted: 14 });

    // A branch deleted with its versions, then the project with the rest.
    await db.deleteFrom('branches').where('id', '=', side.id).execute();
    expect((await countsOf(db)).get(main.id)).toEqual({ kept: 14, counted: 14 });
    expect(await branchCountOf(db, project.id)).toEqual({ kept: 1, counted: 1 });
    await db.deleteFrom('projects').where('id', '=', project.id).execute();
    expect(await countsOf(db)).toEqual(new Map());
  });
});
