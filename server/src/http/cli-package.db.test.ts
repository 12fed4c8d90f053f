import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { CLI_PACKAGE_MISSING, CLI_PACKAGE_PATH } from './cli-package';

describe('the takes CLI package download', () => {
  let dir: string;
  let t: TestApp;
  let missing: TestApp;
  const bytes = randomBytes(70_000);
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-cli-package-'));
    fs.writeFileSync(path.join(dir, 'takes-cli.tgz'), bytes);
    t = await createTestApp({ env: { CLI_PACKAGE_FILE: path.join(dir, 'takes-cli.tgz') } });
    missing = await createTestApp({ env: { CLI_PACKAGE_FILE: path.join(dir, 'none.tgz') } });
  });
  afterAll(async () => {
    await t.close();
    await missing.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves the built package to anyone, as a download with a validator', async () => {
    const response = await t.app.inject({ method: 'GET', url: CLI_PACKAGE_PATH });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/gzip');
    expect(response.headers['content-disposition']).toBe('attachment; filename="takes-cli.tgz"');
    expect(response.headers['content-length']).toBe(String(bytes.length));
    expect(Buffer.compare(response.rawPayload, bytes)).toBe(0);
    const etag = String(response.headers.etag);
    expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);

    const again = await t.app.inject({
      method: 'GET',
      url: CLI_PACKAGE_PATH,
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    const head = await t.app.inject({ method: 'HEAD', url: CLI_PACKAGE_PATH });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(bytes.length));
    expect(head.rawPayload.length).toBe(0);
  });

  it('says how to build it when a server has not', async () => {
    const response = await missing.app.inject({ method: 'GET', url: CLI_PACKAGE_PATH });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: CLI_PACKAGE_MISSING, code: 'not_found' });
  });
});
