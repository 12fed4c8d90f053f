import { afterEach, describe, expect, it } from 'vitest';
import { api } from '../../../test/api';
import { buildProject, buildReaderWorld, buildVersion, minuteClock } from '../../../test/factories';
import { OWN_PROJECTS_AT_MOST } from './search-hits';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { SEARCH_WALK_WINDOW } from './workspace.repo';

/**
 * Search's version hits are the 50 newest matches the person may read, whether they are found by
 * walking the instance's newest versions (a common word) or, when fewer than 50 are there, by
 * sorting every match: the LIKE path (PostgreSQL; words under 3 characters on SQLite), and FTS5,
 * where a person with few versions has them all matched and one with many walks the matches.
 */
describe('search finds the newest readable matching versions', () => {
  let t: TestApp;
  afterEach(async () => {
    await t?.close();
  });

  it('the same answer inside the walked window and past it, with shared projects', async () => {
    t = await createTestApp();
    const db = t.deps.database.db;
    const deps = { db, storage: t.deps.storage };
    const { me, mine, theirs, shared } = await buildReaderWorld(db);

    const at = minuteClock();
    const readable: { id: string; created_at: string }[] = [];
    const add = async (
      target: { project: { id: string }; branch: { id: string } },
      message: string,
    ) => {
      const created_at = at();
      const v = await buildVersion(
        deps,
        { projectId: target.project.id, branchId: target.branch.id },
        { overrides: { created_at, message } },
      );
      return { id: v.id, created_at };
    };
    for (let i = 0; i < 40; i++) {
      readable.push(await add(mine, `rough mix ${i}`));
      await add(theirs, `rough mix ${i}`);
      readable.push(await add(shared, `vocal mix ${i}`));
      await add(mine, `drums ${i}`);
    }
    const expected = () =>
      [...readable]
        .sort((a, b) => (a.created_at < b.created_at ? 1 : -1))
        .slice(0, 50)
        .map((v) => v.id);
    const search = async (q: string) =>
      (await api(t, me.cookie).get(`/api/search?q=${encodeURIComponent(q)}`))
        .json<{ versions: { id: string }[] }>()
        .versions.map((v) => v.id);

    // Every letter's case folds alike on every path (FTS5's trigram index, SQLite's own-rows
    // path, PostgreSQL's lower()).
    const summer = await add(mine, 'ÉTÉ take');
    expect(await search('été')).toEqual([summer.id]);
    expect(await search('ÉtÉ')).toEqual([summer.id]);

    // 'ix' goes through LIKE on both databases, 'mix' through FTS5 on SQLite.
    for (const q of ['ix', 'mix']) expect(await search(q)).toEqual(expected());
    expect(await search('drums')).toHaveLength(40);
    expect(await search('zzqx')).toEqual([]);

    // Past the window: newer matches nobody else may read push all of mine out of it.
    for (let i = 0; i < SEARCH_WALK_WINDOW + 10; i++) await add(theirs, `late mix ${i}`);
    for (const q of ['ix', 'mix']) expect(await search(q)).toEqual(expected());
    // One new match of mine comes first again.
    readable.push(await add(mine, 'final mix'));
    for (const q of ['ix', 'mix']) expect(await search(q)).toEqual(expected());

    // Many projects (SQLite: the walk over the word's matches instead of the person's rows).
    for (let i = 0; i <= OWN_PROJECTS_AT_MOST; i++) await buildProject(db, me.id);
    for (const q of ['ix', 'mix']) expect(await search(q)).toEqual(expected());
    expect(await search('été')).toEqual([summer.id]);
    readable.push(await add(shared, 'shared mix, last'));
    for (const q of ['ix', 'mix']) expect(await search(q)).toEqual(expected());
    // Enough new matches of mine that the window holds 50 of them.
    for (let i = 0; i < 60; i++) readable.push(await add(mine, `newer mix ${i}`));
    for (const q of ['ix', 'mix']) expect(await search(q)).toEqual(expected());
    expect(await search('drums')).toHaveLength(40);
  }, 120_000);
});
