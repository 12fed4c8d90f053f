import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { contentDisposition } from '../../storage/s3';
import { route } from '../../http/route';
import { hideShareUrls, type SharingService } from '../sharing';
import type { MarkerFile, MarkersService } from './markers.service';

const api = endpoints.markers;

function send(reply: FastifyReply, file: MarkerFile) {
  if (file.cleanup) {
    const cleanup = file.cleanup;
    reply.raw.once('close', () => void cleanup());
  }
  return reply
    .type(file.contentType)
    .header('content-length', String(file.size))
    .header('content-disposition', contentDisposition(file.fileName))
    .header('cache-control', 'private, no-store')
    .send(file.body);
}

/** A version's comments as DAW markers, for members and through share links. */
export const markerRoutes =
  (deps: { service: MarkersService; sharing: SharingService }): FastifyPluginAsync =>
  (app) => {
    hideShareUrls(app);
    route(app, api.getVersionMarkers, {}, async (request, reply) =>
      send(
        reply,
        await deps.service.forMember(
          userOf(request).id,
          request.params.versionId,
          request.query.format,
          request.query.resolved === 'include',
        ),
      ),
    );
    route(app, api.getShareLinkMarkers, {}, async (request, reply) => {
      const opened = await deps.sharing.open(
        request.params.hash,
        request.ip,
        request.headers.cookie,
      );
      return send(
        reply,
        await deps.service.forLink(
          opened,
          request.query.format,
          request.query.resolved === 'include',
        ),
      );
    });
    return Promise.resolve();
  };
