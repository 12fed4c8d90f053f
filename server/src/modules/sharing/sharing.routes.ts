import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createLinkBodySchema,
  errorBodySchema,
  shareLinkSchema,
  SHARE_MESSAGES,
  sharedVersionSchema,
  updateLinkBodySchema,
} from '@takes/contract';
import { userOf } from '../../auth/guard';
import { Forbidden } from '../../errors';
import { sendObject, sendStoredAudio } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import { downloadOf } from '../audio';
import type { SharingService } from './sharing.service';

/** The error statuses share and comment routes answer (one schema for all). */
export const shareErrors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  410: errorBodySchema,
  416: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};
export const hashParams = z.object({ hash: z.string().min(1).max(64) });
export const versionParams = z.object({
  versionId: z.string().min(1, SHARE_MESSAGES.versionIdRequired).max(64),
});

/** How long a visitor waiting for the standard rendition is asked to wait before trying again. */
const PROCESSING_RETRY_AFTER_SECONDS = 5;

/** Share URLs are secrets: never leak them in a Referer, never let them be indexed. */
export function hideShareUrls(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-robots-tag', 'noindex, nofollow');
    done(null, payload);
  });
}

/** The owner's link management (signed in). */
export const ownerSharingRoutes =
  (deps: {
    service: SharingService;
    requireUser: preHandlerAsyncHookHandler;
  }): FastifyPluginAsyncZod =>
  (app) => {
    const { service } = deps;
    app.addHook('preHandler', deps.requireUser);
    const tags = ['sharing'];
    app.post(
      '/versions/:versionId/links',
      {
        schema: {
          tags,
          params: versionParams,
          body: createLinkBodySchema,
          response: { 201: shareLinkSchema, ...shareErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await service.createLink(userOf(request).id, request.params.versionId, request.body),
          ),
    );
    app.get(
      '/versions/:versionId/links',
      {
        schema: {
          tags,
          params: versionParams,
          response: { 200: z.array(shareLinkSchema), ...shareErrors },
        },
      },
      (request) => service.listLinks(userOf(request).id, request.params.versionId),
    );
    app.delete(
      '/links/:linkId',
      {
        schema: {
          tags,
          params: z.object({ linkId: z.string().max(64) }),
          response: { 204: z.null(), ...shareErrors },
        },
      },
      async (request, reply) => {
        await service.revokeLink(userOf(request).id, request.params.linkId);
        return reply.status(204).send(null);
      },
    );
    app.patch(
      '/links/:linkId',
      {
        schema: {
          tags,
          params: z.object({ linkId: z.string().max(64) }),
          body: updateLinkBodySchema,
          response: { 200: shareLinkSchema, ...shareErrors },
        },
      },
      (request) => service.updateLink(userOf(request).id, request.params.linkId, request.body),
    );
    return Promise.resolve();
  };

/** What anyone holding a link may do: see, listen and maybe download (comments: modules/comments). */
export const linkRoutes =
  (deps: { service: SharingService; storage: ObjectStore }): FastifyPluginAsyncZod =>
  (app) => {
    const { service } = deps;
    const tags = ['share links'];
    hideShareUrls(app);

    app.get(
      '/links/hash/:hash',
      {
        schema: {
          tags,
          params: hashParams,
          response: { 200: sharedVersionSchema, ...shareErrors },
        },
      },
      async (request) => service.sharedPage(await service.open(request.params.hash, request.ip)),
    );

    app.get(
      '/links/hash/:hash/audio',
      {
        schema: {
          tags,
          params: hashParams,
          querystring: z.object({
            quality: z.enum(['original', 'high', 'standard']).default('standard'),
          }),
          response: shareErrors,
        },
      },
      async (request, reply) => {
        const { link, version } = await service.open(request.params.hash, request.ip);
        // Without download rights only the standard rendition streams, never the original.
        const result = service.linkAudio({ link, version }, request.query.quality);
        if (!result.ready) {
          return reply
            .status(409)
            .header('retry-after', String(PROCESSING_RETRY_AFTER_SECONDS))
            .send({ error: SHARE_MESSAGES.stillProcessing });
        }
        return sendStoredAudio(request, reply, deps.storage, result.audio);
      },
    );

    app.get(
      '/links/hash/:hash/download',
      { schema: { tags, params: hashParams, response: shareErrors } },
      async (request, reply) => {
        const { link, version, project } = await service.open(request.params.hash, request.ip);
        if (!link.download_enabled) throw new Forbidden(SHARE_MESSAGES.downloadNotAllowed);
        const download = downloadOf(version, project.name);
        return sendObject(reply, deps.storage, download.key, request.headers.range, {
          contentType: download.contentType,
          downloadName: download.fileName,
        });
      },
    );

    return Promise.resolve();
  };
