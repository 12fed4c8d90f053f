import { afterEach, describe, expect, it } from 'vitest';
import { api, newUser } from '../../../test/api';
import { createTestApp, type TestApp } from '../../../test/test-app';

describe('projects and branches', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  async function setup() {
    t = await createTestApp();
    const owner = api(t, await newUser(t));
    const stranger = api(t, await newUser(t, 'stranger'));
    return { owner, stranger };
  }

  it("pages 'Your Projects' with limit and after, each project once, with the same counts", async () => {
    const { owner, stranger } = await setup();
    // Five projects with one shared update time: the id keeps the order total.
    const now = new Date().toISOString();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (await owner.post('/api/projects', { name: `Song ${i}` })).json<{ id: string }>().id,
      );
    await t.deps.database.db.updateTable('projects').set({ updated_at: now }).execute();
    await stranger.post('/api/projects', { name: 'Not mine' });
    const whole = (await owner.get('/api/projects')).json<{ id: string; branches: unknown[] }[]>();
    expect(whole).toHaveLength(5);
    const pages: string[][] = [];
    let after: string | undefined;
    for (;;) {
      const page = await owner.get(`/api/projects?limit=2${after ? `&after=${after}` : ''}`);
      expect(page.statusCode, page.body).toBe(200);
      const items = page.json<{ id: string; branches: { version_count: number }[] }[]>();
      pages.push(items.map((p) => p.id));
      expect(items.every((p) => p.branches.length === 1)).toBe(true);
      if (items.length < 2) break;
      after = items.at(-1)!.id;
    }
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(whole.map((p) => p.id));
    expect(new Set(pages.flat())).toEqual(new Set(ids));
    // Someone else's project, or none, is no place to continue from.
    const theirs = (await stranger.get('/api/projects')).json<{ id: string }[]>()[0]!.id;
    for (const bad of [theirs, 'no-such-project'])
      expect((await owner.get(`/api/projects?limit=2&after=${bad}`)).json()).toEqual({
        error: 'The page to continue after was not found; load the list again',
        code: 'invalid',
      });
    expect((await owner.get('/api/projects?limit=0')).statusCode).toBe(400);
    expect((await owner.get('/api/projects?limit=101')).statusCode).toBe(400);
  });

  it('creates a private project with a default branch main, and lists newest first', async () => {
    const { owner } = await setup();
    const first = await owner.post('/api/projects', { name: '  First Song ', description: 'demo' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      name: 'First Song',
      description: 'demo',
      is_private: true,
      branches: [{ name: 'main', is_default: true, version_count: 0 }],
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await owner.post('/api/projects', { name: 'Second Song', is_private: false });
    const list = await owner.get('/api/projects');
    expect(list.json<{ name: string }[]>().map((p) => p.name)).toEqual([
      'Second Song',
      'First Song',
    ]);
    expect((await owner.post('/api/projects', { name: '   ' })).json()).toEqual({
      error: 'Project name is required',
      code: 'invalid',
      details: expect.anything() as unknown,
    });
  });

  it('edits, toggles privacy and deletes', async () => {
    const { owner } = await setup();
    const { id } = (await owner.post('/api/projects', { name: 'Song' })).json<{ id: string }>();
    expect(
      (await owner.patch(`/api/projects/${id}`, { name: 'Renamed', description: null })).json(),
    ).toMatchObject({ name: 'Renamed', description: null });
    expect((await owner.post(`/api/projects/${id}/toggle-privacy`)).json()).toMatchObject({
      is_private: false,
    });
    expect((await owner.post(`/api/projects/${id}/toggle-privacy`)).json()).toMatchObject({
      is_private: true,
    });
    expect((await owner.delete(`/api/projects/${id}`)).statusCode).toBe(204);
    expect((await owner.get(`/api/projects/${id}`)).statusCode).toBe(404);
  });

  it("answers another user's project exactly like a missing one", async () => {
    const { owner, stranger } = await setup();
    const { id, branches } = (await owner.post('/api/projects', { name: 'Secret' })).json<{
      id: string;
      branches: { id: string }[];
    }>();
    const branchId = branches[0]?.id ?? '';
    const missing = await stranger.get('/api/projects/00000000-0000-0000-0000-000000000000');
    for (const response of [
      await stranger.get(`/api/projects/${id}`),
      await stranger.patch(`/api/projects/${id}`, { name: 'Hacked' }),
      await stranger.post(`/api/projects/${id}/toggle-privacy`),
      await stranger.delete(`/api/projects/${id}`),
      await stranger.get(`/api/projects/${id}/branches`),
      await stranger.post(`/api/projects/${id}/branches`, { name: 'x' }),
      await stranger.patch(`/api/branches/${branchId}`, { name: 'x' }),
      await stranger.post(`/api/branches/${branchId}/default`),
      await stranger.delete(`/api/branches/${branchId}`),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json<{ error: string }>().error).toMatch(/not found/);
    }
    expect(missing.json()).toEqual((await stranger.get(`/api/projects/${id}`)).json());
    expect((await stranger.get('/api/projects')).json()).toEqual([]);
    expect((await owner.get(`/api/projects/${id}`)).json()).toMatchObject({
      name: 'Secret',
      is_private: true,
    });
  });

  it('manages branches: trimmed unique names, one default at a time, default undeletable', async () => {
    const { owner } = await setup();
    const { id } = (await owner.post('/api/projects', { name: 'Song' })).json<{ id: string }>();
    const mix = await owner.post(`/api/projects/${id}/branches`, { name: '  mix-b  ' });
    expect(mix.statusCode).toBe(201);
    expect(mix.json()).toMatchObject({ name: 'mix-b', is_default: false });
    expect((await owner.post(`/api/projects/${id}/branches`, { name: 'mix-b' })).statusCode).toBe(
      409,
    );
    expect(
      (await owner.post(`/api/projects/${id}/branches`, { name: '  ' })).json<{ error: string }>()
        .error,
    ).toBe('Branch name is required');
    await owner.post(`/api/projects/${id}/branches`, { name: 'acoustic' });
    const names = async () =>
      (await owner.get(`/api/projects/${id}/branches`)).json<
        { name: string; is_default: boolean }[]
      >();
    expect((await names()).map((b) => b.name)).toEqual(['main', 'acoustic', 'mix-b']);

    const mixId = mix.json<{ id: string }>().id;
    expect((await owner.patch(`/api/branches/${mixId}`, { name: '' })).statusCode).toBe(400);
    expect((await owner.patch(`/api/branches/${mixId}`, { name: 'acoustic' })).statusCode).toBe(
      409,
    );
    expect(
      (await owner.patch(`/api/branches/${mixId}`, { name: 'radio-edit' })).json(),
    ).toMatchObject({ name: 'radio-edit' });

    expect((await owner.post(`/api/branches/${mixId}/default`)).json()).toMatchObject({
      is_default: true,
    });
    const after = await names();
    expect(after.filter((b) => b.is_default).map((b) => b.name)).toEqual(['radio-edit']);
    expect(after[0]?.name).toBe('radio-edit');
    const deleteDefault = await owner.delete(`/api/branches/${mixId}`);
    expect(deleteDefault.statusCode).toBe(409);
    expect(deleteDefault.json()).toEqual({
      error: 'The default branch cannot be deleted',
      code: 'conflict',
    });
    const mainId = (await names()).find((b) => b.name === 'main') as unknown as { id: string };
    expect((await owner.delete(`/api/branches/${mainId.id}`)).statusCode).toBe(204);
  });

  it('keeps exactly one default when two set-default requests race', async () => {
    const { owner } = await setup();
    const { id } = (await owner.post('/api/projects', { name: 'Song' })).json<{ id: string }>();
    const a = (await owner.post(`/api/projects/${id}/branches`, { name: 'a' })).json<{
      id: string;
    }>().id;
    const b = (await owner.post(`/api/projects/${id}/branches`, { name: 'b' })).json<{
      id: string;
    }>().id;
    await Promise.all([
      owner.post(`/api/branches/${a}/default`),
      owner.post(`/api/branches/${b}/default`),
    ]);
    const branches = (await owner.get(`/api/projects/${id}/branches`)).json<
      { is_default: boolean }[]
    >();
    expect(branches.filter((x) => x.is_default)).toHaveLength(1);
  });
});
