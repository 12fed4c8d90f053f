import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ErrorBody } from '@takes/contract';

/** A project page's address, `/projects/{projectId}` (a query string allowed). */
const PROJECT_PAGE = /^\/projects\/([^/?#]{1,64})\/?(?:\?.*)?$/;

/** A share link's page, `/share/{hash}` (a query string allowed): the share entry serves it. */
const SHARE_PAGE = /^\/share\/[^/?#]+\/?(?:\?.*)?$/;

/** A build's brotli or gzip copy of a file, e.g. `/assets/index-x.js.br`. */
const PRECOMPRESSED_COPY = /\.(?:br|gz)$/;

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
      if (request.url.startsWith('/share/') || request.url.startsWith('/invite/')) {
        // The page's address holds a secret: a share link's key, an invitation's token.
        reply.header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex, nofollow');
      }
      const projectId = PROJECT_PAGE.exec(request.url)?.[1];
      if (projectId !== undefined && !(await options.indexableProject?.(projectId))) {
        // A private project's page, or a Public one its owner did not list.
        reply.header('x-robots-tag', 'noindex');
      }
      // A share link's page has its own light entry (web/share.html), when the build has one.
      const file = SHARE_PAGE.test(request.url) && hasShareEntry ? 'share.html' : 'index.html';
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile(file);
    }
    return reply.status(404).send({ error: 'Not found' } satisfies ErrorBody);
  });
}
