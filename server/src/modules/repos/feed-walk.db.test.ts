import { afterEach, describe, expect, it } from 'vitest';
import { api } from '../../../test/api';
import { buildReaderWorld, buildVersion, minuteClock } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { FEED_WALK_WINDOW } from './repos.repo';

interface FeedItem {
  kind: string;
  id: string;
  created_at: string;
}

/**
 * The feed's versions are the newest the person may read, in order, whether they are found by
 * walking the instance's newest versions (the person's are among them) or, past that window, by
 * sorting the person's own.
 */
describe('the recent feed finds the newest readable versions', () => {
  let t: TestApp;
  afterEach(async () => {
    await t?.close();
  });

  it('the same answer inside the walked window and past it, with shared projects and without audio', async () => {
    t = await createTestApp();
    const db = t.deps.database.db;
    const deps = { db, storage: t.deps.storage };
    const { me, other, mine, theirs, shared } = await buildReaderWorld(db);

    const at = minuteClock();
    const audio = { file_url: 'https://audio.example.test/take.mp3' };
    const readable: { id: string; created_at: string }[] = [];
    const add = async (
      target: { project: { id: string }; branch: { id: string } },
      withAudio = true,
    ) => {
      const created_at = at();
      const v = await buildVersion(
        deps,
        { projectId: target.project.id, branchId: target.branch.id },
        { overrides: { created_at, ...(withAudio ? audio : {}) } },
      );
      return { id: v.id, created_at };
    };
    // Interleaved: mine, someone else's, a shared one, one of mine without audio.
    for (let i = 0; i < 40; i++) {
      readable.push(await add(mine));
      await add(theirs);
      readable.push(await add(shared));
      await add(mine, false);
    }
    const expected = (limit: number) =>
      [...readable]
        .sort((a, b) => (a.created_at < b.created_at ? 1 : -1))
        .slice(0, limit)
        .map((v) => v.id);
    const feed = async (limit: number) =>
      (await api(t, me.cookie).get(`/api/bounces/recent?limit=${limit}&all=true`))
        .json<{ bounces: FeedItem[] }>()
        .bounces.filter((item) => item.kind === 'version')
        .map((item) => item.id);

    // Inside the window: 50 of the 80 readable versions are among the newest 160.
    expect(await feed(50)).toEqual(expected(50));
    // More than the person can read: all of them, newest first.
    expect(await feed(100)).toEqual(expected(100));
    // The other person sees only their own.
    const theirFeed = (await api(t, other.cookie).get('/api/bounces/recent?limit=5&all=true'))
      .json<{ bounces: FeedItem[] }>()
      .bounces.map((item) => item.id);
    expect(theirFeed).toHaveLength(5);
    expect(theirFeed.some((id) => readable.some((v) => v.id === id))).toBe(false);

    // Past the window: newer versions nobody else reads push all of mine out of it.
    for (let i = 0; i < FEED_WALK_WINDOW + 10; i++) await add(theirs);
    expect(await feed(50)).toEqual(expected(50));
    // And one new version of mine comes first again.
    readable.push(await add(mine));
    expect(await feed(50)).toEqual(expected(50));
  });
});
