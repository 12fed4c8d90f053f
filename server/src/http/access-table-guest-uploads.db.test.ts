import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { allEndpoints } from '@takes/contract';
import { ORIGIN } from '../../test/api';
import { createTestApp, type TestApp } from '../../test/test-app';
import {
  buildWorld,
  defaultParams,
  makeWorldFiles,
  type World,
  type WorldFiles,
} from '../../test/world';

/**
 * The access table's rows for an upload link's guest: holding the link's key (and its page's
 * answer) opens nothing else. Every operation that takes a link's key answers the upload key
 * as a wrong one (404, or 401 where a sign-in comes first), every signed-in operation 401,
 * and the guest's page tells nothing of the project.
 */
describe("the access table: an upload link's guest", () => {
  let t: TestApp;
  let dir: string;
  let files: WorldFiles;
  let w: World;
  let ip = 0;

  beforeAll(async () => {
    t = await createTestApp();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-access-guests-'));
    files = await makeWorldFiles(dir);
    w = await buildWorld(t, files);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const OWN = new Set(['openUploadLink', 'unlockUploadLink']);

  it("opens no other link's routes and no signed-in route with the upload key", async () => {
    const wrong: string[] = [];
    for (const endpoint of allEndpoints) {
      if (OWN.has(endpoint.name)) continue;
      const usesKey = endpoint.path.includes(':hash');
      const signedIn =
        endpoint.auth.length > 0 &&
        endpoint.auth.every((scheme) => scheme === 'session' || scheme === 'desktopToken');
      const credential = endpoint.auth.length > 0 && !signedIn;
      if (!usesKey && !signedIn && !credential) continue;
      const params: Record<string, string> = { ...defaultParams(w, false), hash: w.uploadLink.key };
      const url = endpoint.path.replace(/:(\w+)|\*/g, (_whole, name: string | undefined) =>
        encodeURIComponent((name && params[name]) ?? 'unknown'),
      );
      ip += 1;
      const response = await t.app.inject({
        method: endpoint.method,
        url,
        headers: { origin: ORIGIN, 'content-type': 'application/json' },
        payload: endpoint.method === 'GET' ? undefined : '{}',
        remoteAddress: `10.77.${(ip >> 8) & 255}.${ip & 255}`,
      });
      // A key or token route refuses a wrong key as it would any (a body missing its fields: 400).
      const allowed = signedIn ? [401] : [400, 401, 403, 404];
      if (!allowed.includes(response.statusCode))
        wrong.push(`${endpoint.name}: ${response.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it("answers the guest's page with the link's own words only", async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/upload/${w.uploadLink.key}`,
      headers: { origin: ORIGIN },
    });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json<object>()).sort()).toEqual([
      'bytes_left',
      'expires_at',
      'files_left',
      'max_file_bytes',
      'message',
      'name',
      'upload_endpoint',
    ]);
    for (const secret of [w.project.id, w.project.branchId, w.version.id, 'main', 'Olive'])
      expect(response.body).not.toContain(secret);
  });

  it("answers a repository link's guest page with the link's own words only", async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/upload/${w.repoUploadLink.key}`,
      headers: { origin: ORIGIN },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ name: 'Masters' });
    const repo = await t.deps.database.db
      .selectFrom('repos')
      .select('name')
      .where('id', '=', w.repo.id)
      .executeTakeFirstOrThrow();
    for (const secret of [w.repo.id, w.repo.bounceId, w.repo.sha, repo.name, 'main', 'Olive'])
      expect(response.body).not.toContain(secret);
  });
});
