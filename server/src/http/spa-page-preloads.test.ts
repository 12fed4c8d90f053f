import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCompression } from './compression';
import { pickEncoding, pageDataPreload, registerSpa, SESSION_PRELOAD } from './spa';
import { PROJECTS_PAGE_SIZE } from '@takes/contract';
import { decodeBody } from '../../test/decode-body';

const INDEX = `<!doctype html><html><head><title>Takes</title>
<script type="module" crossorigin src="/assets/main-a1.js"></script>
</head><body><div id="root"></div></body></html>`;

const PRELOADS = [
  { path: '/login', files: ['assets/login-page-b2.js', 'assets/alert-c3.js'] },
  { path: '/projects/:projectId', files: ['assets/project-page-d4.js'] },
  {
    path: '/projects/:projectId/branches/:branchId/versions/:versionId',
    files: ['assets/version-page-e5.js'],
  },
  { path: '/share/:hash', files: ['assets/share-page-f7.js'], html: 'share.html' },
  // Never written into the page: not a built script's name.
  {
    path: '/about',
    files: ['assets/x.js"><script>alert(1)</script>', '../secret.js', 'https://cdn.example/x.js'],
  },
];

/** index.html as sent: the session request and `links` listed for preloading. */
const withLinks = (links: string) =>
  INDEX.replace('</head>', `${SESSION_PRELOAD}${links}\n  </head>`);

const preloadsIn = (html: string) =>
  [
    ...html.matchAll(/<link rel="modulepreload" crossorigin fetchpriority="low" href="([^"]+)">/g),
  ].map((m) => m[1]);

/**
 * A built web app in a temp folder (index.html, share.html and the page list) served by
 * `registerSpa` with compression, as the server registers it.
 */
async function spaApp(prefix: string, options: Parameters<typeof registerSpa>[2] = {}) {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.mkdirSync(path.join(dist, '.vite'));
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dist, 'share.html'), INDEX.replace('main-a1', 'share-a1'));
  fs.writeFileSync(path.join(dist, '.vite', 'page-preloads.json'), JSON.stringify(PRELOADS));
  const app = Fastify();
  await registerCompression(app);
  await registerSpa(app, dist, options);
  await app.ready();
  return {
    app,
    dist,
    async close() {
      await app.close();
      fs.rmSync(dist, { recursive: true, force: true });
    },
  };
}

describe("index.html lists the session request and the opened page's files for preloading", () => {
  let served: Awaited<ReturnType<typeof spaApp>>;
  let dist: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    served = await spaApp('takes-page-preloads-');
    ({ app, dist } = served);
  });
  afterAll(() => served.close());

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
    });

  it('adds the matching page’s files before </head>, compressed as the client takes it', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      [undefined, undefined],
    ] as const) {
      const response = await get('/login', accept);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control']).toBe('no-cache');
      const html = decodeBody(encoding, response.rawPayload).toString();
      expect(preloadsIn(html)).toEqual(['/assets/login-page-b2.js', '/assets/alert-c3.js']);
      expect(html.indexOf('modulepreload')).toBeLessThan(html.indexOf('</head>'));
      // The rest of the page is the build's own.
      expect(html.replace(/<link rel="modulepreload"[^>]*>/g, '')).toBe(withLinks(''));
    }
  });

  it('matches routes with parameters and a query string, each to its own page only', async () => {
    const project = await get('/projects/0b6f-42?tab=links');
    expect(preloadsIn(project.body)).toEqual(['/assets/project-page-d4.js']);
    // Still noindex: the project is not a listed Public one.
    expect(project.headers['x-robots-tag']).toBe('noindex');
    const version = await get('/projects/p1/branches/b1/versions/v1');
    expect(preloadsIn(version.body)).toEqual(['/assets/version-page-e5.js']);
    for (const url of ['/', '/projects/p1/branches', '/loginx', '/dashboard']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      // Every page of the app: the session request, no page's files.
      expect(response.body, url).toBe(withLinks(''));
    }
  });

  it("sends a share link's page with its own entry's files and the link's own request", async () => {
    for (const [accept, encoding] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      [undefined, undefined],
    ] as const) {
      const response = await get('/share/Ab3dEf9?t=12', accept);
      expect(response.headers['content-encoding']).toBe(encoding);
      const html = decodeBody(encoding, response.rawPayload).toString();
      expect(html).toContain('/assets/share-a1.js');
      expect(preloadsIn(html)).toEqual(['/assets/share-page-f7.js']);
      expect(html).toContain(SESSION_PRELOAD);
      expect(html).toContain(
        '<link rel="preload" href="/api/links/hash/Ab3dEf9" as="fetch" crossorigin>',
      );
      expect(html.indexOf('/api/links/hash/')).toBeLessThan(html.indexOf('</head>'));
    }
    // A key that is not one (other characters) is never written into the page.
    const odd = await get('/share/Ab%22%3E%3Cscript%3E');
    expect(odd.statusCode).toBe(200);
    expect(odd.body).not.toContain('/api/links/hash/');
    expect(odd.body).not.toContain('<script>');
    expect(preloadsIn(odd.body)).toEqual(['/assets/share-page-f7.js']);
  });

  it('writes nothing but built script names into the page', async () => {
    const response = await get('/about');
    expect(response.body).toBe(withLinks(''));
    expect(response.body).not.toContain('alert(1)');
  });

  it('serves a new build’s index.html once it is written', async () => {
    const rebuilt = INDEX.replace('main-a1', 'main-f6');
    fs.writeFileSync(path.join(dist, 'index.html'), rebuilt);
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(dist, 'index.html'), later, later);
    const response = await get('/login');
    expect(response.body).toContain('/assets/main-f6.js');
    expect(preloadsIn(response.body)).toEqual(['/assets/login-page-b2.js', '/assets/alert-c3.js']);
    // The new build's page list comes with it.
    const list = path.join(dist, '.vite', 'page-preloads.json');
    fs.writeFileSync(
      list,
      JSON.stringify([
        { path: '/login', files: ['assets/login-page-g8.js'] },
        ...PRELOADS.slice(1),
      ]),
    );
    fs.utimesSync(list, later, later);
    expect(preloadsIn((await get('/login')).body)).toEqual(['/assets/login-page-g8.js']);
    fs.writeFileSync(list, JSON.stringify(PRELOADS));
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
    const earlier = new Date(Date.now() + 10_000);
    fs.utimesSync(path.join(dist, 'index.html'), earlier, earlier);
    fs.utimesSync(list, earlier, earlier);
  });

  it('without the list (an older build), every page lists the session request only', async () => {
    const bare = Fastify();
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-page-preloads-'));
    try {
      fs.writeFileSync(path.join(other, 'index.html'), INDEX);
      await registerSpa(bare, other);
      const response = await bare.inject({ method: 'GET', url: '/login' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(withLinks(''));
    } finally {
      await bare.close();
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});

describe("a signed-in visit's project page lists the project's data for preloading", () => {
  const PROJECT = '0b6f2c1e-42aa-4d3b-9f10-5e6a7b8c9d0e';
  const dataLinks = (id: string) =>
    `<link rel="preload" href="/api/projects/${id}" as="fetch" crossorigin>` +
    `<link rel="preload" href="/api/projects/${id}/branches" as="fetch" crossorigin>`;
  let served: Awaited<ReturnType<typeof spaApp>>;
  let app: FastifyInstance;
  /** The cookies `signedIn` was asked about, in order. */
  const asked: (string | undefined)[] = [];

  beforeAll(async () => {
    // Signed in: the cookie the test calls live (the app reads the session it names; see
    // spa-data-preloads.db.test.ts). Answered late, as a database would.
    served = await spaApp('takes-data-preloads-', {
      signedIn: async (cookies) => {
        asked.push(cookies);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return cookies === 'session=signed';
      },
    });
    ({ app } = served);
  });
  afterAll(() => served.close());

  const get = (url: string, cookie?: string, acceptEncoding?: string) =>
    app.inject({
      method: 'GET',
      url,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
      },
    });

  it('adds the project and its branches, compressed as the client takes it', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      [undefined, undefined],
    ] as const) {
      const response = await get(`/projects/${PROJECT}?t=1`, 'session=signed', accept);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      // The page differs by its cookies: caches keep a signed-in visit's copy apart.
      expect(response.headers.vary).toBe('Accept-Encoding, Cookie');
      const html = decodeBody(encoding, response.rawPayload).toString();
      expect(html).toContain(dataLinks(PROJECT));
      expect(html.indexOf('/api/projects/')).toBeLessThan(html.indexOf('</head>'));
      expect(preloadsIn(html)).toEqual(['/assets/project-page-d4.js']);
      expect(html).toContain(SESSION_PRELOAD);
    }
    // An id in capitals is the same project: the app asks for it as written in lower case.
    const upper = await get(`/projects/${PROJECT.toUpperCase()}`, 'session=signed');
    expect(upper.body).toContain(dataLinks(PROJECT));
  });

  it("adds the dashboard's counts and its two project lists, as the dashboard asks for them", async () => {
    const response = await get('/dashboard?welcome=1', 'session=signed');
    expect(response.headers.vary).toBe('Accept-Encoding, Cookie');
    expect(response.body).toContain(
      ['/api/stats', '/api/projects/shared', `/api/projects?limit=${PROJECTS_PAGE_SIZE}`]
        .map((href) => `<link rel="preload" href="${href}" as="fetch" crossorigin>`)
        .join(''),
    );
    const signedOut = await get('/dashboard');
    expect(signedOut.body).toBe(withLinks(''));
    expect(signedOut.headers.vary).toBe('Accept-Encoding, Cookie');
  });

  it('lists no data for a signed-out visit, another page, or an address that is not an id', async () => {
    for (const cookie of [undefined, 'session=forged']) {
      const response = await get(`/projects/${PROJECT}`, cookie);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(
        withLinks(
          '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/project-page-d4.js">',
        ),
      );
    }
    for (const url of [
      '/projects/not-an-id',
      '/projects/%22%3E%3Cscript%3E',
      `/projects/${PROJECT}/branches/b1/versions/v1`,
      '/dashboard/x',
      '/upload',
    ]) {
      const response = await get(url, 'session=signed');
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).not.toContain('/api/projects/');
      expect(response.body, url).not.toContain('<script>');
    }
    expect(pageDataPreload(`/projects/${PROJECT}x`)).toBe('');
    expect(pageDataPreload('/login')).toBe('');
    expect(pageDataPreload(`/projects/${PROJECT}/`)).toBe(dataLinks(PROJECT));
  });

  it('asks about the session only for a page with data of its own', async () => {
    asked.length = 0;
    for (const url of ['/login', '/upload', `/projects/${PROJECT}/branches/b1/versions/v1`, '/']) {
      const response = await get(url, 'session=signed');
      expect(response.statusCode, url).toBe(200);
      expect(response.headers.vary, url).toBe('Accept-Encoding');
    }
    expect(asked).toEqual([]);
    await get('/dashboard', 'session=signed');
    await get(`/projects/${PROJECT}`, 'session=other');
    expect(asked).toEqual(['session=signed', 'session=other']);
  });
});

describe('pickEncoding', () => {
  it('takes brotli, else gzip, and honours q=0', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('gzip;q=0.5, br;q=0')).toBe('gzip');
    expect(pickEncoding('deflate')).toBeUndefined();
    expect(pickEncoding('identity')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
    // Names are case-insensitive; the highest q wins.
    expect(pickEncoding('GZIP, BR')).toBe('br');
    expect(pickEncoding('br;q=0.4, gzip;q=0.5')).toBe('gzip');
  });
});
