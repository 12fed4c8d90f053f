import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { errorBody, PROJECTS_PAGE_SIZE } from '@takes/contract';
import { BROTLI_QUALITY } from './compression';

/** A project page's address, `/projects/{projectId}` (a query string allowed). */
const PROJECT_PAGE = /^\/projects\/([^/?#]{1,64})\/?(?:\?.*)?$/;

/** A share link's page, `/share/{hash}` (a query string allowed): the share entry serves it. */
const SHARE_PAGE = /^\/share\/[^/?#]+\/?(?:\?.*)?$/;

/** A build's brotli or gzip copy of a file, e.g. `/assets/index-x.js.br`. */
const PRECOMPRESSED_COPY = /\.(?:br|gz)$/;

/** The web build's list of each lazily loaded page's files (web/src/build/page-preloads.ts). */
const PAGE_PRELOADS_FILE = path.join('.vite', 'page-preloads.json');

interface PagePreloads {
  /** The entry the page is sent with: the app (index.html) or the share entry (share.html). */
  html: 'index.html' | 'share.html';
  /** `/projects/:projectId` as a pattern over a request's path. */
  pattern: RegExp;
  /**
   * `<link rel="modulepreload">` for each file, at low priority: they share a phone's bandwidth
   * with the entry's own bundle, which the first paint waits for (Lighthouse, median of 3:
   * /share/:hash 92 -> 94-95, /login 94 -> 96 with it).
   */
  links: string;
}

/** Reads the build's page list; none when the build has no such file (or an unreadable one). */
function readPagePreloads(webDistDir: string): PagePreloads[] {
  let list: unknown;
  try {
    list = JSON.parse(fs.readFileSync(path.join(webDistDir, PAGE_PRELOADS_FILE), 'utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry: { path?: unknown; files?: unknown; html?: unknown }) => {
    if (typeof entry.path !== 'string' || !Array.isArray(entry.files)) return [];
    const html = entry.html === 'share.html' ? 'share.html' : 'index.html';
    const segments = entry.path
      .split('/')
      .map((segment) =>
        segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      );
    const files = entry.files.filter(
      (file): file is string => typeof file === 'string' && /^assets\/[\w.-]+\.js$/.test(file),
    );
    if (files.length === 0) return [];
    return [
      {
        html,
        pattern: new RegExp(`^${segments.join('/')}/?$`),
        links: files
          .map(
            (file) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="/${file}">`,
          )
          .join(''),
      },
    ];
  });
}

/**
 * Every page of the app asks for the session first thing (web AuthProvider): listed in the HTML,
 * the browser starts that request while the app's bundle downloads, and the app's own fetch of
 * it takes the answer (same URL, mode and credentials) instead of asking again.
 */
export const SESSION_PRELOAD =
  '<link rel="preload" href="/api/auth/session" as="fetch" crossorigin>';

/** A share link's key as it may appear in its page's address (letters, digits). */
const SHARE_KEY = /^\/share\/([A-Za-z0-9]{1,64})\/?$/;

/**
 * The share page asks for its link first (after the session): listed in the HTML for the key in
 * the address, that request starts with the page too.
 */
export function shareLinkPreload(pathname: string): string {
  const key = SHARE_KEY.exec(pathname)?.[1];
  return key ? `<link rel="preload" href="/api/links/hash/${key}" as="fetch" crossorigin>` : '';
}

/** The best of brotli, gzip or none that an Accept-Encoding header takes (q-values honoured). */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  return (
    negotiate<'br' | 'gzip'>((acceptEncoding ?? '').toLowerCase(), ['br', 'gzip']) ?? undefined
  );
}

/** A project's id as it may appear in its page's address (ids are UUIDs). */
const PROJECT_ID_PAGE =
  /^\/projects\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i;

/**
 * The first data a signed-in page asks for, with the exact addresses its app code asks for them
 * (web: projects-api.ts). A member's project page waits for the project and its branches before
 * its heading (the page's largest paint) shows; the dashboard for its counts and its two project
 * lists. Listed in the HTML of a signed-in visit, these requests start with the page instead of
 * after the app's bundle and the session (Lighthouse, a phone on slow 4G: three round trips in a
 * row before). A visitor who is not a member gets the same 404 the app's own request would get.
 */
export function pageDataPreload(pathname: string): string {
  const id = PROJECT_ID_PAGE.exec(pathname)?.[1]?.toLowerCase();
  const hrefs = id
    ? [`/api/projects/${id}`, `/api/projects/${id}/branches`]
    : /^\/dashboard\/?$/.test(pathname)
      ? ['/api/stats', '/api/projects/shared', `/api/projects?limit=${PROJECTS_PAGE_SIZE}`]
      : [];
  return hrefs.map((href) => `<link rel="preload" href="${href}" as="fetch" crossorigin>`).join('');
}

function isApiUrl(url: string): boolean {
  return url === '/api' || url.startsWith('/api/');
}

export interface SpaOptions {
  /**
   * Whether `/projects/{projectId}` may be indexed by search engines: the project is Public and
   * its owner ticked 'List in search engines'. Asked on every request (nothing is cached); without
   * it every project page is `noindex`.
   */
  indexableProject?: (projectId: string) => Promise<boolean>;
  /**
   * Whether a request's cookies hold a live session (a signed cookie whose session exists and has
   * not expired): a signed-in visit gets its page's data listed for preloading too, so a stale
   * cookie never has the browser fetch answers it may not have. Asked only for a page that has
   * data of its own. Without it, no page lists data of its own beyond the session.
   */
  signedIn?: (cookieHeader: string | undefined) => boolean | Promise<boolean>;
}

/**
 * Serves the built web app, with index.html for client-side routes. Without a build
 * (development with Vite), unknown paths get the JSON 404.
 */
export async function registerSpa(
  app: FastifyInstance,
  webDistDir: string,
  options: SpaOptions = {},
): Promise<void> {
  const indexFile = path.join(webDistDir, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  const hasShareEntry = fs.existsSync(path.join(webDistDir, 'share.html'));
  /** The build's page list, read again when a new build replaces it (its file changes). */
  let preloadList: { changed: number; pages: PagePreloads[] } = { changed: NaN, pages: [] };
  const pagePreloads = (): PagePreloads[] => {
    let changed: number;
    try {
      changed = fs.statSync(path.join(webDistDir, PAGE_PRELOADS_FILE)).mtimeMs;
    } catch {
      return [];
    }
    if (changed !== preloadList.changed)
      preloadList = { changed, pages: readPagePreloads(webDistDir) };
    return preloadList.pages;
  };
  /**
   * index.html (or share.html) with the session request and the opened page's files listed for
   * preloading; made once per page and build (a new build, a new HTML file: made again), and as
   * sent (brotli, gzip) where nothing in it depends on the request.
   */
  const pageHtml = new Map<
    string,
    { built: string; text: string; plain: Buffer; br: Buffer; gzip: Buffer }
  >();
  const htmlWithPreloads = (file: 'index.html' | 'share.html', page: PagePreloads | undefined) => {
    const htmlFile = path.join(webDistDir, file);
    // A new build: a new HTML file or a new page list.
    const built = `${fs.statSync(htmlFile).mtimeMs} ${preloadList.changed}`;
    const key = `${file} ${page?.pattern.source ?? ''}`;
    let html = pageHtml.get(key);
    if (html?.built !== built) {
      const links = `${SESSION_PRELOAD}${page?.links ?? ''}`;
      const text = fs.readFileSync(htmlFile, 'utf8').replace('</head>', `${links}\n  </head>`);
      const plain = Buffer.from(text);
      html = {
        built,
        text,
        plain,
        br: zlib.brotliCompressSync(plain),
        gzip: zlib.gzipSync(plain, { level: 9 }),
      };
      pageHtml.set(key, html);
    }
    return html;
  };
  if (hasBuild) {
    // A byte range is a range of the file itself: such a request gets the plain file, never a
    // slice of its brotli or gzip copy.
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.headers.range !== undefined && !isApiUrl(request.url))
        delete request.headers['accept-encoding'];
      done();
    });
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      // The build writes a .br and a .gz copy of each text file (web/scripts/precompress.mjs):
      // sent as they are, by the client's Accept-Encoding, index.html from sendFile too.
      preCompressed: true,
      // The copies are not addresses of their own.
      allowedPath: (pathname) => !PRECOMPRESSED_COPY.test(pathname),
      // Our own cache rules below instead of the plugin's default max-age=0.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        // Vite puts content hashes in asset names, so they never change.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader(
          'cache-control',
          immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        // The answer depends on Accept-Encoding (plain, brotli or gzip): caches keep each apart.
        res.setHeader('vary', 'Accept-Encoding');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const isApi = isApiUrl(request.url);
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (!isApi && wantsPage && hasBuild) {
      if (
        request.url.startsWith('/share/') ||
        request.url.startsWith('/invite/') ||
        request.url.startsWith('/join/') ||
        request.url.startsWith('/upload/')
      ) {
        // The page's address holds a secret: a share link's key, an invitation's token, an
        // invite link's or an upload link's key.
        reply.header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex, nofollow');
      }
      const projectId = PROJECT_PAGE.exec(request.url)?.[1];
      if (projectId !== undefined && !(await options.indexableProject?.(projectId))) {
        // A private project's page, or a Public one its owner did not list.
        reply.header('x-robots-tag', 'noindex');
      }
      // A share link's page has its own light entry (web/share.html), when the build has one.
      const file = SHARE_PAGE.test(request.url) && hasShareEntry ? 'share.html' : 'index.html';
      reply.header('cache-control', 'no-cache');
      const pathname = request.url.split(/[?#]/, 1)[0] ?? '';
      const page = pagePreloads().find(
        (candidate) => candidate.html === file && candidate.pattern.test(pathname),
      );
      // The session, the page's files and (a share link's page) its link are fetched beside the
      // app's bundle, not after it ran.
      const html = htmlWithPreloads(file, page);
      const encoding = pickEncoding(request.headers['accept-encoding']);
      // A page with data of its own lists it for a signed-in visit only.
      const pageData = options.signedIn && file === 'index.html' ? pageDataPreload(pathname) : '';
      reply
        .header('vary', pageData ? 'Accept-Encoding, Cookie' : 'Accept-Encoding')
        .type('text/html; charset=utf-8');
      if (encoding) reply.header('content-encoding', encoding);
      // What differs per address and visit: a share link's key, a signed-in visit's data.
      const dataPreload =
        file === 'share.html'
          ? shareLinkPreload(pathname)
          : pageData && (await options.signedIn?.(request.headers.cookie))
            ? pageData
            : '';
      if (!dataPreload) return reply.send(encoding ? html[encoding] : html.plain);
      // Made per request (about 1.5 KB).
      const body = Buffer.from(html.text.replace('</head>', `${dataPreload}</head>`));
      if (encoding === 'br')
        return reply.send(
          zlib.brotliCompressSync(body, {
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY },
          }),
        );
      if (encoding === 'gzip') return reply.send(zlib.gzipSync(body));
      return reply.send(body);
    }
    return reply.status(404).send(errorBody('not_found', 'Not found'));
  });
}
