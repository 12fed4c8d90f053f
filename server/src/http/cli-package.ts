import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '@takes/contract';

export const CLI_PACKAGE_PATH = '/downloads/takes-cli.tgz';
export const CLI_PACKAGE_MISSING =
  'The takes command-line package has not been built on this server. Run npm run build.';

/**
 * The takes CLI as one npm package with nothing left to fetch (built by cli/build.mjs), so any
 * instance offers a working desktop companion: `npm install -g https://…/downloads/takes-cli.tgz`.
 * Public, like the site's other downloads: it holds no data, only the program.
 */
export function registerCliPackage(app: FastifyInstance, file: string): void {
  app.get(CLI_PACKAGE_PATH, async (request, reply) => {
    const info = await fsp.stat(file).catch(() => null);
    if (!info?.isFile()) return reply.status(404).send(errorBody('not_found', CLI_PACKAGE_MISSING));
    const etag = `"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`;
    reply
      .header('etag', etag)
      .header('last-modified', info.mtime.toUTCString())
      .header('cache-control', 'no-cache')
      .header('content-disposition', 'attachment; filename="takes-cli.tgz"');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    return reply
      .type('application/gzip')
      .header('content-length', String(info.size))
      .send(fs.createReadStream(file));
  });
}
