import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import { sendObject } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import type { ExportsService } from './exports.service';

const api = endpoints.dataExports;

/** The signed-in person's own exports: start one, see the latest, download it. */
export const exportRoutes =
  (deps: { service: ExportsService; storage: ObjectStore }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
    route(app, api.startDataExport, {}, (request) => service.start(userOf(request).id));
    route(app, api.getLatestDataExport, {}, (request) => service.latest(userOf(request).id));
    route(app, api.downloadDataExport, {}, async (request, reply) => {
      const zip = await service.download(userOf(request).id, request.params.id);
      return sendObject(reply, deps.storage, zip.key, request.headers.range, {
        contentType: 'application/zip',
        downloadName: zip.fileName,
        cacheControl: 'private, no-store',
        redirect: true,
      });
    });
    return Promise.resolve();
  };
