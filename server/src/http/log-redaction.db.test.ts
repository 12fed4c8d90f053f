import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { buildApp } from '../app';
import { redactUrl } from './log-redaction';

describe('the request log', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it('shows no secret that a request URL carried', async () => {
    t = await createTestApp();
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    // The process logger as main.ts makes it, at info level: every request is logged.
    const app = await buildApp(t.deps, { logger: pino({ level: 'info' }, sink) });
    try {
      const urls = [
        '/api/auth/magic-code/link?token=MagicLinkSecret1',
        '/api/versions/00000000-0000-0000-0000-000000000000/stream?quality=high&token=BearerSecret2',
        '/api/storage/originals/ab/cd?expires=1999999999&sig=SignatureSecret3&name=take.wav',
        '/api/auth/callback/google?code=OAuthCodeSecret4&state=OAuthStateSecret5',
        '/api/links/hash/ShareKeySecret6/audio?quality=standard',
        '/share/ShareKeySecret7',
        '/desktop-return?code=DesktopCodeSecret8',
        '/nowhere?api_key=ApiKeySecret9',
        '/api/collection-links/CollectionKeySecret10/items/i1/stream',
        '/api/events?link=EventsKeySecret11',
      ];
      for (const url of urls) await app.inject({ method: 'GET', url });
    } finally {
      await app.close();
    }
    const log = lines.join('\n');
    for (let n = 1; n <= 11; n += 1) expect(log).not.toMatch(new RegExp(`Secret${n}`));
    const loggedUrls = lines
      .map((line) => JSON.parse(line) as { req?: { url?: string } })
      .flatMap((entry) => (entry.req?.url ? [entry.req.url] : []));
    expect(loggedUrls).toEqual([
      '/api/auth/magic-code/link?token=[redacted]',
      '/api/versions/00000000-0000-0000-0000-000000000000/stream?quality=high&token=[redacted]',
      '/api/storage/originals/ab/cd?expires=1999999999&sig=[redacted]&name=take.wav',
      '/api/auth/callback/google?code=[redacted]&state=[redacted]',
      '/api/links/hash/[redacted]/audio?quality=standard',
      '/share/[redacted]',
      '/desktop-return?code=[redacted]',
      '/nowhere?api_key=[redacted]',
      '/api/collection-links/[redacted]/items/i1/stream',
      '/api/events?link=[redacted]',
    ]);
  });
});

describe('redactUrl', () => {
  it.each([
    ['/api/health', '/api/health'],
    ['/search?q=night+drive', '/search?q=night+drive'],
    ['/x?Token=a&TOKEN=b', '/x?Token=[redacted]&TOKEN=[redacted]'],
    ['/x?%74oken=a', '/x?%74oken=[redacted]'],
    ['/x?flag&token', '/x?flag&token'],
    ['/share/abc?x=1', '/share/[redacted]?x=1'],
    ['/invite/Tok3n_secret', '/invite/[redacted]'],
    ['/api/versions/0b9e/stream?quality=high', '/api/versions/0b9e/stream?quality=high'],
    ['/x?a=%25&b=1', '/x?a=%25&b=1'],
    ['/x?to+ken=a&%73ig=b', '/x?to+ken=a&%73ig=[redacted]'],
    ['/api/links/hash/Abc123/comments?page=2', '/api/links/hash/[redacted]/comments?page=2'],
    [
      '/api/collection-links/Abc123/items/i1/stream?quality=high',
      '/api/collection-links/[redacted]/items/i1/stream?quality=high',
    ],
    ['/api/events?link=Abc123', '/api/events?link=[redacted]'],
    ['/x?linked=1&unlink=2', '/x?linked=1&unlink=2'],
  ])('%s → %s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });
});
