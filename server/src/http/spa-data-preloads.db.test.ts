import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser, ORIGIN } from '../../test/api';
import { createTestApp, type TestApp } from '../../test/test-app';

const INDEX = `<!doctype html><html><head><title>Takes</title>
<script type="module" crossorigin src="/assets/main-a1.js"></script>
</head><body><div id="root"></div></body></html>`;
const STATS_PRELOAD = '<link rel="preload" href="/api/stats" as="fetch" crossorigin>';

/**
 * The whole app: a signed-in visit's dashboard lists its data for preloading only while the
 * session the cookie names is live, so a stale cookie never has the browser fetch answers that
 * would be refused (a 401 in the console before the app shows the page signed out).
 */
describe("a page's data is listed with its HTML for a live session only", () => {
  let t: TestApp;
  let webDist: string;
  let cookie: string;

  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-data-preloads-app-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), INDEX);
    t = await createTestApp({ webDistDir: webDist });
    cookie = await newUser(t, 'preloads');
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  const dashboard = async (cookieHeader?: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/dashboard',
      headers: cookieHeader ? { cookie: cookieHeader } : {},
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers.vary).toBe('Accept-Encoding, Cookie');
    return response.body;
  };
  const setExpiry = (at: Date) =>
    t.deps.database.db.updateTable('sessions').set({ expires_at: at.toISOString() }).execute();

  it('lists the data for a live session, none signed out or for a forged cookie', async () => {
    expect(await dashboard(cookie)).toContain(STATS_PRELOAD);
    expect(await dashboard()).not.toContain('/api/stats');
    const forged = cookie.replace(/session_token=([^.;]+)/, 'session_token=$1x');
    expect(forged).not.toBe(cookie);
    expect(await dashboard(forged)).not.toContain('/api/stats');
  });

  it('lists none once the session has expired, and again once it is live', async () => {
    const live = (await t.deps.database.db
      .selectFrom('sessions')
      .select('expires_at')
      .executeTakeFirstOrThrow()) as { expires_at: string | Date };
    await setExpiry(new Date(Date.now() - 60_000));
    expect(await dashboard(cookie)).not.toContain('/api/stats');
    await setExpiry(new Date(live.expires_at));
    expect(await dashboard(cookie)).toContain(STATS_PRELOAD);
  });

  it('lists none after signing out (the cookie still carries a valid signature)', async () => {
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      payload: {},
      headers: { cookie, origin: ORIGIN },
    });
    expect(out.statusCode).toBe(200);
    expect(await dashboard(cookie)).not.toContain('/api/stats');
  });
});
