import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { api, ORIGIN } from '../../test/api';
import { useWorldApp } from '../../test/world';
import { NUL_MESSAGE } from './nul-characters';

/**
 * What the fuzz tests found (each was a 500), kept as plain cases so they stay fixed whatever
 * seed the fuzzing draws.
 */
describe('requests the fuzzing found answered with a 500', () => {
  const c = useWorldApp();

  const send = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, cookie = '') =>
    c.t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    });

  it('refuses U+0000 in a body, a path or a query with a 400 (PostgreSQL text cannot hold it)', async () => {
    const owner = c.world.users.owner.cookie;
    const answers = [
      await send('PATCH', `/api/projects/${c.world.project.id}`, { name: 'a\u0000b' }, owner),
      await send('POST', '/api/projects', { name: 'ok', description: { x: ['\u0000'] } }, owner),
      await send('GET', '/api/public/projects/%00'),
      await send('GET', `/api/versions/${c.world.version.id}%00`, undefined, owner),
      await send('GET', '/api/search?q=%00', undefined, owner),
    ];
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json()).toMatchObject({ error: NUL_MESSAGE });
    }
    const project = await send('GET', `/api/projects/${c.world.project.id}`, undefined, owner);
    expect(project.json<{ name: string }>().name).not.toContain('\u0000');
  });

  it('refuses U+0000 in the text fields or file name of an upload with the same 400', async () => {
    const owner = api(c.t, c.world.users.owner.cookie);
    const file = { path: c.files.wav };
    const cases: Record<string, string>[] = [
      {
        project_id: c.world.project.id,
        branch_id: c.world.project.branchId,
        commit_message: 'take\u00002',
      },
      { project_name: 'New\u0000song' },
    ];
    for (const fields of cases) {
      const response = await owner.upload(file, fields);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ error: NUL_MESSAGE });
    }
    const named = await owner.upload(
      { content: fs.readFileSync(c.files.wav), name: 'a\u0000b.wav' },
      {},
    );
    expect(named.statusCode, named.body).toBe(400);
    expect(named.json()).toMatchObject({ error: NUL_MESSAGE });
  });

  it('answers a ?token= that no header can carry (non-ASCII) as no credentials: 401', async () => {
    const url = `/api/versions/${c.world.version.id}/stream?token=${encodeURIComponent('🏳️‍🌈')}`;
    const response = await send('GET', url);
    expect(response.statusCode, response.body).toBe(401);
    expect(typeof response.json<{ error?: unknown }>().error).toBe('string');
  });

  it('takes a comment with an empty parent id as a comment, not a reply to a missing row', async () => {
    const response = await send('POST', `/api/links/hash/${c.world.link.hash}/comments`, {
      content: 'Lovely bridge',
      visitor_name: 'Sam',
      parent_id: '',
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ content: 'Lovely bridge', parent_id: null });
  });

  it('keeps a comment position to the millisecond (1e-81 s would underflow a PostgreSQL real)', async () => {
    const response = await send(
      'POST',
      `/api/versions/${c.world.version.id}/comments`,
      { content: 'At the very start', timestamp: 5.874892155473274e-81 },
      c.world.users.owner.cookie,
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ timestamp: 0 });
    const later = await send(
      'POST',
      `/api/versions/${c.world.version.id}/comments`,
      { content: 'Chorus', timestamp: 1.23456 },
      c.world.users.owner.cookie,
    );
    expect(later.json()).toMatchObject({ timestamp: 1.235 });
  });

  it("answers an OAuth callback better-auth refuses in the API's error shape", async () => {
    for (const url of ['/api/auth/callback/.', '/api/auth/callback/no-such-provider']) {
      const response = await send('GET', url);
      expect(response.statusCode, response.body).toBeGreaterThanOrEqual(300);
      if (response.statusCode < 400) continue;
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(typeof response.json<{ error?: unknown }>().error).toBe('string');
    }
  });
});
