import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ErrorBody } from '@takes/contract';

/** A project page's address, `/projects/{projectId}` (a query string allowed). */
const PROJECT_PAGE = /^\/projects\/([^/?#]{1,64})\/?(?:\?.*)?$/;

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
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      // Our own cache rules below instead of the plugin's default max-age=0.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        // Vite puts content hashes in asset names, so they never change.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader(
          'cache-control',
          immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
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
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    return reply.status(404).send({ error: 'Not found' } satisfies ErrorBody);
  });
}
