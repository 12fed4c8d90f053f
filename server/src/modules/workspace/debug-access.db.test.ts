import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signInByCode } from '../../../test/admin';
import { api, newUser, ORIGIN } from '../../../test/api';
import { startTestSmtp, type TestSmtp } from '../../../test/smtp';
import {
  cookiesFrom,
  createTestApp,
  TestClock,
  type TestApp,
  type TestAppOptions,
} from '../../../test/test-app';
import { deleteObjectsJob } from '../../storage/jobs';
import { SmtpMailer } from '../../mail/mailer';
import { LocalObjectStore } from '../../storage/local';

const ADMIN = 'owner@example.com';

describe('the debug page and health details belong to the instance admins', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  afterAll(() => smtp.close());
  afterEach(async () => {
    await t.close();
  });

  async function start(env: Record<string, string>, options: TestAppOptions = {}) {
    t = await createTestApp({
      env,
      mailer: new SmtpMailer(smtp.url, 'Takes <no-reply@takes.test>'),
      ...options,
    });
  }

  async function signUpWithPassword(email: string): Promise<string> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { email, password: 'violet-mixdown-47' },
      headers: { origin: ORIGIN },
    });
    expect(response.statusCode, response.body).toBe(200);
    return cookiesFrom(response.headers['set-cookie']);
  }

  it('answers 404 to users who are not listed or whose listed address is unproven', async () => {
    await start({ ADMIN_EMAILS: ` Someone@example.com , ${ADMIN.toUpperCase()} ` });
    const admin = api(t, await signInByCode(t, smtp, ADMIN));
    expect((await admin.get('/api/debug')).statusCode).toBe(200);
    expect((await admin.post('/api/debug/round-trip')).statusCode).toBe(200);

    const other = api(t, await newUser(t));
    for (const response of [
      await other.get('/api/debug'),
      await other.post('/api/debug/round-trip'),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Not found', code: 'not_found' });
    }
    // Anyone can sign up with a password under a listed address: that proves nothing.
    const claimed = api(t, await signUpWithPassword('someone@example.com'));
    expect((await claimed.get('/api/debug')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/debug' })).statusCode).toBe(401);
  });

  it('is off for everyone without ADMIN_EMAILS outside development', async () => {
    await start({});
    const admin = api(t, await signInByCode(t, smtp, ADMIN));
    expect((await admin.get('/api/debug')).statusCode).toBe(404);
    await t.close();
    await start({ NODE_ENV: 'production', MAIL_TO_LOG: 'true' });
    const user = api(t, await signInByCode(t, smtp, ADMIN));
    expect((await user.get('/api/debug')).statusCode).toBe(404);
  });

  it('is open to signed-in users in development when ADMIN_EMAILS is not set', async () => {
    await start({ NODE_ENV: 'development' });
    const user = api(t, await newUser(t));
    expect((await user.get('/api/debug')).statusCode).toBe(200);
  });

  it('probes ffmpeg once per process and reuses the report for a few seconds', async () => {
    const clock = new TestClock();
    await start({ ADMIN_EMAILS: ADMIN }, { clock });
    const versionCalls = vi.spyOn(t.deps.media, 'version');
    const admin = api(t, await signInByCode(t, smtp, ADMIN));
    const jobsOf = async () =>
      (await admin.get('/api/debug')).json<{ jobs: { queued: number } }>().jobs;

    const first = await jobsOf();
    await t.deps.jobs.enqueue(deleteObjectsJob, { keys: ['nothing/here'] }, { delayMs: 3_600_000 });
    expect(await jobsOf()).toEqual(first);
    clock.advance(11_000);
    expect((await jobsOf()).queued).toBe(first.queued + 1);
    clock.advance(11_000);
    await jobsOf();
    expect(versionCalls).toHaveBeenCalledTimes(1);
  });

  it('shows health status names to everyone and details to admins only', async () => {
    await start({ ADMIN_EMAILS: ADMIN });
    const health = (cookie?: string) =>
      t.app.inject({ method: 'GET', url: '/api/health', headers: cookie ? { cookie } : {} });

    const anonymous = await health();
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toEqual({
      status: 'ok',
      checks: { database: { status: 'ok' }, storage: { status: 'ok' }, ffmpeg: { status: 'ok' } },
    });
    const user = await health(await newUser(t));
    expect(user.json()).toEqual(anonymous.json());
    expect((await health('takes.session_token=forged')).json()).toEqual(anonymous.json());

    const admin = await health(await signInByCode(t, smtp, ADMIN));
    expect(admin.statusCode).toBe(200);
    expect(admin.json()).toMatchObject({
      status: 'ok',
      checks: {
        database: { status: 'ok', detail: t.deps.database.dialect },
        storage: { status: 'ok', detail: 'local' },
        ffmpeg: { status: 'ok', detail: expect.stringMatching(/^ffmpeg version/) as unknown },
      },
    });
  });

  it('keeps the storage error message from anonymous callers of an unhealthy server', async () => {
    await start(
      { ADMIN_EMAILS: ADMIN },
      {
        // Storage whose folder cannot exist: a file sits where its parent should be.
        storage: (dir, signer) => {
          const blocker = path.join(dir, 'not-a-folder');
          fs.writeFileSync(blocker, 'x');
          return new LocalObjectStore(path.join(blocker, 'objects'), signer);
        },
      },
    );
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(anonymous.statusCode).toBe(503);
    expect(anonymous.body).not.toContain('not-a-folder');
    expect(anonymous.json()).toEqual({
      status: 'error',
      checks: {
        database: { status: 'ok' },
        storage: { status: 'error' },
        ffmpeg: { status: 'ok' },
      },
    });
    const admin = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { cookie: await signInByCode(t, smtp, ADMIN) },
    });
    expect(admin.statusCode).toBe(503);
    expect(admin.json()).toMatchObject({
      checks: {
        storage: { status: 'error', detail: expect.stringContaining('not-a-folder') as unknown },
      },
    });
  });
});
