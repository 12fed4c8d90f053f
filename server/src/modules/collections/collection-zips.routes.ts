import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { route } from '../../http/route';
import { sendObject } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import type { AuthService } from '../auth';
import { hideShareUrls, listenerOf } from '../sharing';
import type { CollectionLinksService } from './collection-links.service';
import type { CollectionZipsService } from './collection-zips.service';

const api = endpoints.collectionLinks;

/**
 * A Range asking for a later part of the file continues a download already counted; a whole
 * file, or one from its first byte, is a download.
 */
const startsDownload = (range: string | undefined) =>
  range === undefined || /^bytes=0-/.test(range.trim());

/**
 * 'Download all' through a collection link: start a zip of its items, follow its progress,
 * download it. Every route opens the link first (revoked, expired, locked: as the link says).
 */
export const collectionZipRoutes =
  (deps: {
    links: CollectionLinksService;
    zips: CollectionZipsService;
    storage: ObjectStore;
    /** Who downloads, for the download receipts (a signed-in person counts as themselves). */
    auth: AuthService;
  }): FastifyPluginAsync =>
  (app) => {
    const { links, zips } = deps;
    hideShareUrls(app);

    route(app, api.startCollectionLinkZip, {}, async (request) => {
      const opened = await links.open(request.params.hash, request.ip, request.headers.cookie);
      return zips.start(opened, request.ip);
    });

    route(app, api.getCollectionLinkZip, {}, async (request) => {
      const opened = await links.open(request.params.hash, request.ip, request.headers.cookie);
      return zips.get(opened, request.params.zipId);
    });

    route(app, api.downloadCollectionLinkZip, {}, async (request, reply) => {
      const opened = await links.open(request.params.hash, request.ip, request.headers.cookie);
      const zip = await zips.file(opened, request.params.zipId);
      if (startsDownload(request.headers.range))
        await zips.countDownload(opened, zip.itemIds, await listenerOf(request, deps.auth));
      return sendObject(reply, deps.storage, zip.key, request.headers.range, {
        contentType: 'application/zip',
        downloadName: zip.fileName,
        cacheControl: 'private, no-store',
        redirect: true,
      });
    });

    return Promise.resolve();
  };
