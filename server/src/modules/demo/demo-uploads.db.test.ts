import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_MAX_UPLOAD_BYTES, DEMO_MESSAGES, type PublishResponse } from '@takes/contract';
import { demoAudio, demoHelpers } from '../../../test/demo-app';
import { api, eventually, newUser, ORIGIN } from '../../../test/api';
import { createTestApp, type TestApp } from '../../../test/test-app';

const audio = demoAudio();

describe('demo accounts', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });
  const { startDemo, projectsOf, versionsOf, uploadsUsed, lazyBody } = demoHelpers(() => t);

  it('allows 3 uploads (versions and bounce publishes), refuses the 4th, and refuses more than 50 MB while it streams', async () => {
    t = await createTestApp();
    const { client, cookie, session } = await startDemo();
    const userId = session.user.id;
    const [project] = await projectsOf(client);
    const branches = (await client.get(`/api/projects/${project?.id}/branches`)).json<
      { id: string; name: string }[]
    >();
    const main = branches.find((b) => b.name === 'main');
    const fields = {
      project_id: project?.id ?? '',
      branch_id: main?.id ?? '',
      commit_message: 'Mine',
    };
    expect(await uploadsUsed(userId)).toBe(0);

    // A version upload past 50 MB: refused as it arrives, not after the whole body.
    const boundary = 'demoboundary';
    const total = 200 * 1024 * 1024;
    const big = lazyBody(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="audio_file"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
      ),
      total,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    );
    const tooBig = await t.app.inject({
      method: 'POST',
      url: '/api/versions/upload',
      payload: big.stream,
      headers: {
        cookie,
        origin: ORIGIN,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toEqual({ error: DEMO_MESSAGES.tooLarge, code: 'too_large' });
    expect(big.produced()).toBeGreaterThan(DEMO_MAX_UPLOAD_BYTES);
    expect(big.produced()).toBeLessThan(total);
    expect(fs.readdirSync(t.deps.tmpDir)).toEqual([]);
    expect(await uploadsUsed(userId)).toBe(0);

    // A bounce past 50 MB: the publish says the limit, the PUT stops at it.
    const repo = (await client.post('/api/repos', { name: 'Demo Repo' })).json<{
      repo: { id: string };
    }>().repo;
    const declared = await client.post('/api/bounces/publish', {
      repo_id: repo.id,
      branch: 'main',
      filename: 'big.wav',
      size: DEMO_MAX_UPLOAD_BYTES + 1,
    });
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toEqual({ error: DEMO_MESSAGES.tooLarge, code: 'too_large' });
    const started = await client.post('/api/bounces/publish', {
      repo_id: repo.id,
      branch: 'main',
      filename: 'big.wav',
    });
    expect(started.statusCode, started.body).toBe(201);
    const publish = started.json<PublishResponse>();
    expect(publish.max_bytes).toBe(DEMO_MAX_UPLOAD_BYTES);
    expect(await uploadsUsed(userId)).toBe(1);
    const declaredPut = await t.app.inject({
      method: 'PUT',
      url: new URL(publish.upload_url).pathname,
      payload: Buffer.from('RIFF'),
      headers: {
        'content-type': 'audio/wav',
        'content-length': String(DEMO_MAX_UPLOAD_BYTES + 1),
        'x-upsert-token': publish.upload_token,
      },
    });
    expect(declaredPut.statusCode).toBe(413);
    expect(declaredPut.json()).toEqual({ error: DEMO_MESSAGES.tooLarge, code: 'too_large' });
    // A body that does not say its length is cut off where it passes the limit.
    const again = (
      await client.post('/api/bounces/publish', {
        repo_id: repo.id,
        branch: 'main',
        filename: 'big.wav',
      })
    ).json<PublishResponse>();
    expect(await uploadsUsed(userId)).toBe(2);
    const bigBounce = lazyBody(Buffer.from('RIFF'), total, Buffer.alloc(0));
    // The PUT route reads the request itself, so stopping it ends the request: a client
    // that declared no length sees the connection end (the 413 may not reach it).
    const put = await t.app
      .inject({
        method: 'PUT',
        url: new URL(again.upload_url).pathname,
        payload: bigBounce.stream,
        headers: { 'content-type': 'audio/wav', 'x-upsert-token': again.upload_token },
      })
      .then(
        (response) => ({ status: response.statusCode, body: response.body }),
        (error: unknown) => ({ status: 0, body: String(error) }),
      );
    // Either the 413 arrives, or the connection ends (status 0): never a stored upload.
    if (put.status === 413)
      expect(JSON.parse(put.body)).toEqual({ error: DEMO_MESSAGES.tooLarge, code: 'too_large' });
    else expect(put.status).toBe(0);
    expect(bigBounce.produced()).toBeLessThan(total);

    // The refused PUT leaves nothing (its clean-up may finish just after the request ends).
    await eventually(
      async () =>
        (await t.deps.database.db.selectFrom('bounce_uploads').select('id').execute()).length === 0,
    );
    expect(await t.deps.storage.list('originals/')).toHaveLength((await versionsOf(userId)).length);

    // Upload three: a version.
    const third = await client.upload({ path: audio.oneSecond }, fields);
    expect(third.statusCode, third.body).toBe(201);
    expect(await uploadsUsed(userId)).toBe(3);

    // The fourth, of either kind, is refused before any byte is stored.
    const fourth = await client.upload({ path: audio.twoSeconds }, fields);
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json()).toEqual({
      error: DEMO_MESSAGES.uploadsUsedUp,
      code: 'upload_quota_exceeded',
    });
    const fourthBounce = await client.post('/api/bounces/publish', {
      repo_id: repo.id,
      branch: 'main',
      filename: 'again.wav',
    });
    expect(fourthBounce.statusCode).toBe(403);
    expect(fourthBounce.json()).toEqual({
      error: DEMO_MESSAGES.uploadsUsedUp,
      code: 'upload_quota_exceeded',
    });
    expect(await versionsOf(userId)).toHaveLength(3);
    expect(await uploadsUsed(userId)).toBe(3);

    // Nobody else is held to the demo's quota.
    const owner = api(t, await newUser(t));
    for (let i = 0; i < 4; i++)
      expect((await owner.upload({ path: audio.oneSecond }, {})).statusCode).toBe(201);
  }, 90_000);
});
