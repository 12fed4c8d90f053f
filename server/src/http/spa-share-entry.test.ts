import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerSpa } from './spa';

/** A web build with the app's entry, and (unless told) the share link's own entry. */
async function serve(withShareEntry: boolean): Promise<{ app: FastifyInstance; dist: string }> {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-share-entry-'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>app</title>');
  if (withShareEntry)
    fs.writeFileSync(path.join(dist, 'share.html'), '<!doctype html><title>share</title>');
  const app = Fastify();
  await registerSpa(app, dist);
  await app.ready();
  return { app, dist };
}

describe('the share entry', () => {
  let served: { app: FastifyInstance; dist: string } | undefined;
  afterEach(async () => {
    await served?.app.close();
    if (served) fs.rmSync(served.dist, { recursive: true, force: true });
    served = undefined;
  });

  it('answers a share link page with share.html, every other page with index.html', async () => {
    served = await serve(true);
    const titleOf = async (url: string) => {
      const page = await served!.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type'], url).toContain('text/html');
      return /<title>(\w+)<\/title>/.exec(page.body)?.[1];
    };
    for (const url of ['/share/Ab3dEf', '/share/Ab3dEf/', '/share/Ab3dEf?t=42'])
      expect(await titleOf(url), url).toBe('share');
    for (const url of ['/', '/share', '/share/', '/share/Ab3dEf/more', '/dashboard', '/404'])
      expect(await titleOf(url), url).toBe('app');
    // The share page keeps its secret-address headers.
    const share = await served.app.inject({ method: 'GET', url: '/share/Ab3dEf' });
    expect(share.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(share.headers['referrer-policy']).toBe('no-referrer');
  });

  it('falls back to index.html for a share link page when the build has no share entry', async () => {
    served = await serve(false);
    const page = await served.app.inject({ method: 'GET', url: '/share/Ab3dEf' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>app</title>');
  });
});
