import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, losslessSettled, newUser, ORIGIN } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { createTestApp, type TestApp } from '../../../test/test-app';

/** One app for the whole matrix: an owner, a processed version and one link of each kind. */
describe('share links and comments: the access matrix', () => {
  let t: TestApp;
  let dir: string;
  let versionId: string;
  let owner: ReturnType<typeof api>;
  let stranger: ReturnType<typeof api>;
  const links: Record<'full' | 'noDownload' | 'expired' | 'revoked', string> = {
    full: '',
    noDownload: '',
    expired: '',
    revoked: '',
  };
  const anonymous = () => ({
    get: (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, headers }),
    post: (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, payload, headers: { origin: ORIGIN } }),
    delete: (url: string) => t.app.inject({ method: 'DELETE', url, headers: { origin: ORIGIN } }),
  });

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-share-'));
    t = await createTestApp();
    owner = api(t, await newUser(t));
    stranger = api(t, await newUser(t, 'stranger'));
    const wav = await makeAudio(dir, 'wav', 2, 'Client Mix.wav');
    versionId = (await owner.upload({ path: wav }, {})).json<{ version_id: string }>().version_id;
    await t.deps.jobs.startWorking();
    await eventually(
      async () =>
        (await owner.get(`/api/versions/${versionId}/processing`)).json<{ status: string }>()
          .status === 'completed',
    );
    await losslessSettled(t, versionId);
    const make = async (body: object) =>
      (await owner.post(`/api/versions/${versionId}/links`, body)).json<{
        id: string;
        hash: string;
      }>();
    links.full = (await make({ download_enabled: true })).hash;
    links.noDownload = (await make({ name: 'For the label' })).hash;
    links.expired = (await make({ expires_at: new Date(Date.now() - 60_000).toISOString() })).hash;
    const revoked = await make({});
    links.revoked = revoked.hash;
    expect((await owner.delete(`/api/links/${revoked.id}`)).statusCode).toBe(204);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('makes 22-character keys and names links after the project and version by default', async () => {
    const list = (await owner.get(`/api/versions/${versionId}/links`)).json<
      { hash: string; name: string; url: string }[]
    >();
    expect(list).toHaveLength(3);
    for (const link of list) expect(link.hash).toMatch(/^[A-Za-z0-9]{22}$/);
    expect(list.map((l) => l.name).sort()).toEqual([
      'Client Mix - Version 1',
      'Client Mix - Version 1',
      'For the label',
    ]);
    expect((await stranger.get(`/api/versions/${versionId}/links`)).statusCode).toBe(404);
    expect((await stranger.post(`/api/versions/${versionId}/links`, {})).statusCode).toBe(404);
  });

  it('page data', async () => {
    expect((await owner.get(`/api/versions/${versionId}`)).statusCode).toBe(200);
    expect((await stranger.get(`/api/versions/${versionId}`)).statusCode).toBe(404);
    expect((await anonymous().get(`/api/versions/${versionId}`)).statusCode).toBe(401);
    const page = await anonymous().get(`/api/links/hash/${links.full}`);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({
      project: { name: 'Client Mix' },
      version: { id: versionId, version_number: 1, message: null },
      link: { download_enabled: true },
    });
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-robots-tag']).toContain('noindex');
    expect((await anonymous().get(`/api/links/hash/${links.noDownload}`)).json()).toMatchObject({
      link: { download_enabled: false },
    });
    // 'Listen in': the renditions made; Lossless (the WAV's FLAC) only where downloads are allowed.
    const qualities = async (hash: string) =>
      (await anonymous().get(`/api/links/hash/${hash}`)).json<{
        version: { qualities: string[] };
      }>().version.qualities;
    expect(await qualities(links.full)).toEqual(['standard', 'high', 'lossless']);
    expect(await qualities(links.noDownload)).toEqual(['standard', 'high']);
    const expired = await anonymous().get(`/api/links/hash/${links.expired}`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toEqual({ error: 'This link has expired', code: 'link_expired' });
    const revoked = await anonymous().get(`/api/links/hash/${links.revoked}`);
    expect(revoked.statusCode).toBe(404);
    expect(revoked.json()).toEqual({ error: 'Link not found', code: 'link_not_found' });
    expect((await anonymous().get('/api/links/hash/AAAAAAAAAAAAAAAAAAAAAA')).json()).toEqual({
      error: 'Link not found',
      code: 'link_not_found',
    });
  });

  it('audio', async () => {
    expect((await owner.get(`/api/versions/${versionId}/stream`)).statusCode).toBe(200);
    expect((await stranger.get(`/api/versions/${versionId}/stream`)).statusCode).toBe(404);
    expect((await anonymous().get(`/api/versions/${versionId}/stream`)).statusCode).toBe(401);
    const full = await anonymous().get(`/api/links/hash/${links.full}/audio?quality=original`, {
      range: 'bytes=0-3',
    });
    expect(full.statusCode).toBe(206);
    expect(full.headers['content-type']).toBe('audio/wav');
    // No download rights: the standard rendition only, whatever is asked for.
    const limited = await anonymous().get(
      `/api/links/hash/${links.noDownload}/audio?quality=original`,
      { range: 'bytes=0-1' },
    );
    expect(limited.statusCode).toBe(206);
    expect(limited.headers['content-type']).toBe('audio/mpeg');
    // 'Listen in: High' streams the 320k rendition without download rights; Standard the 128k.
    const size = async (quality: string) => {
      const response = await anonymous().get(
        `/api/links/hash/${links.noDownload}/audio?quality=${quality}`,
        { range: 'bytes=0-1' },
      );
      expect(response.headers['content-type']).toBe('audio/mpeg');
      return Number(response.headers['content-range']?.toString().split('/')[1]);
    };
    const [high, standard, original] = [
      await size('high'),
      await size('standard'),
      await size('original'),
    ];
    expect(high).toBeGreaterThan(standard);
    expect(original).toBe(standard);
    expect(await size('lossless')).toBe(standard);
    // With download rights, Lossless is the original's FLAC.
    const flac = await anonymous().get(`/api/links/hash/${links.full}/audio?quality=lossless`, {
      range: 'bytes=0-3',
    });
    expect(flac.statusCode).toBe(206);
    expect(flac.headers['content-type']).toBe('audio/flac');
    expect(flac.rawPayload.toString('latin1')).toBe('fLaC');
    expect((await anonymous().get(`/api/links/hash/${links.expired}/audio`)).statusCode).toBe(410);
    expect((await anonymous().get(`/api/links/hash/${links.revoked}/audio`)).statusCode).toBe(404);
  });

  it('download', async () => {
    expect((await owner.get(`/api/versions/${versionId}/download`)).statusCode).toBe(200);
    expect((await stranger.get(`/api/versions/${versionId}/download`)).statusCode).toBe(404);
    expect((await anonymous().get(`/api/versions/${versionId}/download`)).statusCode).toBe(401);
    const allowed = await anonymous().get(`/api/links/hash/${links.full}/download`);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers['content-disposition']).toContain(
      `Client Mix-${versionId.slice(0, 8)}.wav`,
    );
    const refused = await anonymous().get(`/api/links/hash/${links.noDownload}/download`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'Downloads are not allowed for this link',
      code: 'forbidden',
    });
    expect((await anonymous().get(`/api/links/hash/${links.expired}/download`)).statusCode).toBe(
      410,
    );
    expect((await anonymous().get(`/api/links/hash/${links.revoked}/download`)).statusCode).toBe(
      404,
    );
  });

  it('comment create, list and delete, oldest first, with replies and resolve', async () => {
    const byVisitor = await anonymous().post(`/api/links/hash/${links.noDownload}/comments`, {
      visitor_name: 'Label A&R',
      content: 'Chorus needs more lift',
      timestamp: 1.5,
    });
    expect(byVisitor.statusCode, byVisitor.body).toBe(201);
    expect(byVisitor.json()).toMatchObject({
      author: 'Label A&R',
      user_id: null,
      timestamp: 1.5,
      resolved: false,
    });
    const nameless = await anonymous().post(`/api/links/hash/${links.full}/comments`, {
      content: 'who am I',
    });
    expect(nameless.statusCode).toBe(400);
    expect(nameless.json()).toEqual({
      error: 'Please set your name before commenting',
      code: 'invalid',
    });
    expect(
      (
        await anonymous().post(`/api/links/hash/${links.full}/comments`, {
          visitor_name: 'A',
          content: '   ',
        })
      ).json<{ error: string }>().error,
    ).toBe('Comment text is required');
    expect(
      (
        await anonymous().post(`/api/links/hash/${links.full}/comments`, {
          visitor_name: 'A',
          content: 'x'.repeat(5001),
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await anonymous().post(`/api/links/hash/${links.expired}/comments`, {
          visitor_name: 'A',
          content: 'late',
        })
      ).statusCode,
    ).toBe(410);
    expect(
      (
        await anonymous().post(`/api/links/hash/${links.revoked}/comments`, {
          visitor_name: 'A',
          content: 'gone',
        })
      ).statusCode,
    ).toBe(404);

    const visitorId = byVisitor.json<{ id: string }>().id;
    const reply = await owner.post(`/api/versions/${versionId}/comments`, {
      content: 'Fixed in the next take',
      parent_id: visitorId,
    });
    expect(reply.statusCode, reply.body).toBe(201);
    // An email-and-password account: the team reads the part of its address before the @…
    const { email } = (await owner.get('/api/profile')).json<{ email: string }>();
    expect(reply.json()).toMatchObject({
      parent_id: visitorId,
      timestamp: null,
      author: email.split('@')[0],
    });
    // …and the link's listener no part of it.
    const heard = await anonymous().get(`/api/links/hash/${links.noDownload}/comments`);
    expect(heard.json<{ id: string; author: string }[]>()).toContainEqual(
      expect.objectContaining({ id: reply.json<{ id: string }>().id, author: 'Unknown User' }),
    );
    expect(
      (await stranger.post(`/api/versions/${versionId}/comments`, { content: 'sneaky' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await anonymous().post(`/api/versions/${versionId}/comments`, { content: 'sneaky' }))
        .statusCode,
    ).toBe(401);

    const listed = (await anonymous().get(`/api/links/hash/${links.full}/comments`)).json<
      { content: string }[]
    >();
    expect(listed.map((c) => c.content)).toEqual([
      'Chorus needs more lift',
      'Fixed in the next take',
    ]);
    expect((await owner.get(`/api/versions/${versionId}/comments`)).json()).toHaveLength(2);
    expect((await stranger.get(`/api/versions/${versionId}/comments`)).statusCode).toBe(404);
    expect((await anonymous().get(`/api/versions/${versionId}/comments`)).statusCode).toBe(401);
    expect((await anonymous().get(`/api/links/hash/${links.expired}/comments`)).statusCode).toBe(
      410,
    );
    expect((await anonymous().get(`/api/links/hash/${links.revoked}/comments`)).statusCode).toBe(
      404,
    );

    expect(
      (await owner.patch(`/api/comments/${visitorId}`, { resolved: true })).json(),
    ).toMatchObject({ resolved: true });
    expect(
      (await owner.get(`/api/versions/${versionId}/comments?resolved=exclude`))
        .json<{ content: string }[]>()
        .map((c) => c.content),
    ).toEqual(['Fixed in the next take']);
    expect(
      (await stranger.patch(`/api/comments/${visitorId}`, { resolved: false })).statusCode,
    ).toBe(404);

    expect((await stranger.delete(`/api/comments/${visitorId}`)).statusCode).toBe(404);
    expect((await anonymous().delete(`/api/comments/${visitorId}`)).statusCode).toBe(401);
    expect(
      (await anonymous().delete(`/api/links/hash/${links.full}/comments/${visitorId}`)).statusCode,
    ).toBe(404);
    expect((await owner.delete(`/api/comments/${visitorId}`)).statusCode).toBe(204);
    // The reply went with the comment it answered.
    expect((await owner.get(`/api/versions/${versionId}/comments`)).json()).toEqual([]);
  });

  it('keeps script and markup in comments and names as plain text', async () => {
    const payload = {
      visitor_name: '<img src=x onerror=alert(1)>',
      content: '<script>alert("x")</script> & <b>bold</b>',
    };
    const created = await anonymous().post(`/api/links/hash/${links.full}/comments`, payload);
    expect(created.statusCode).toBe(201);
    expect(created.headers['content-type']).toContain('application/json');
    const listed = (await anonymous().get(`/api/links/hash/${links.full}/comments`)).json<
      { author: string; content: string }[]
    >();
    expect(listed.at(-1)).toMatchObject({ author: payload.visitor_name, content: payload.content });
  });

  it('rate limits guessing link keys per IP', async () => {
    const guess = (i: number) =>
      t.app.inject({
        method: 'GET',
        url: `/api/links/hash/Guess${String(i).padStart(17, '0')}`,
        remoteAddress: '203.0.113.9',
      });
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await guess(i)).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Even a real key is refused to that address until the window passes.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/links/hash/${links.full}`,
          remoteAddress: '203.0.113.9',
        })
      ).statusCode,
    ).toBe(429);
    expect((await anonymous().get(`/api/links/hash/${links.full}`)).statusCode).toBe(200);
  });
});
