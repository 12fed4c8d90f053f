import type { preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  commentSchema,
  createLinkBodySchema,
  errorBodySchema,
  ownerCommentBodySchema,
  shareLinkSchema,
  SHARE_MESSAGES,
  sharedVersionSchema,
  updateLinkBodySchema,
  visitorCommentBodySchema,
} from '@takes/contract';
import { userOf } from '../../auth/guard';
import { HttpError } from '../../http/errors';
import { sendObject, sendStoredAudio } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import type { AuthService } from '../auth/auth.service';
import { toFetchHeaders } from '../auth/fetch-bridge';
import { downloadOf } from '../audio';
import type { SharingService } from './sharing.service';

const errors = {
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
const hashParams = z.object({ hash: z.string().min(1).max(64) });
const versionParams = z.object({
  versionId: z.string().min(1, SHARE_MESSAGES.versionIdRequired).max(64),
});
const commentParams = z.object({ commentId: z.string().min(1).max(64) });

/** How long a visitor waiting for the standard rendition is asked to wait before trying again. */
const PROCESSING_RETRY_AFTER_SECONDS = 5;

/** The owner's link and comment management (signed in). */
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
          response: { 201: shareLinkSchema, ...errors },
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
          response: { 200: z.array(shareLinkSchema), ...errors },
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
          response: { 204: z.null(), ...errors },
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
          response: { 200: shareLinkSchema, ...errors },
        },
      },
      (request) => service.updateLink(userOf(request).id, request.params.linkId, request.body),
    );
    app.get(
      '/versions/:versionId/comments',
      {
        schema: {
          tags,
          params: versionParams,
          querystring: z.object({ resolved: z.enum(['include', 'exclude']).default('include') }),
          response: { 200: z.array(commentSchema), ...errors },
        },
      },
      (request) =>
        service.ownerComments(
          userOf(request).id,
          request.params.versionId,
          request.query.resolved === 'include',
        ),
    );
    app.post(
      '/versions/:versionId/comments',
      {
        schema: {
          tags,
          params: versionParams,
          body: ownerCommentBodySchema,
          response: { 201: commentSchema, ...errors },
        },
      },
      async (request, reply) => {
        const user = userOf(request);
        await service.ownerComments(user.id, request.params.versionId, false);
        const comment = await service.addComment({
          versionId: request.params.versionId,
          userId: user.id,
          visitorName: null,
          linkId: null,
          content: request.body.content,
          timestamp: request.body.timestamp,
          parentId: request.body.parent_id,
          teamOnly: request.body.team_only,
        });
        return reply.status(201).send(comment);
      },
    );
    app.delete(
      '/comments/:commentId',
      { schema: { tags, params: commentParams, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await service.deleteComment(userOf(request).id, request.params.commentId);
        return reply.status(204).send(null);
      },
    );
    app.patch(
      '/comments/:commentId',
      {
        schema: {
          tags,
          params: commentParams,
          body: z.object({ resolved: z.boolean() }),
          response: { 200: commentSchema, ...errors },
        },
      },
      (request) =>
        service.setResolved(userOf(request).id, request.params.commentId, request.body.resolved),
    );
    return Promise.resolve();
  };

/** What anyone holding a link may do: see, listen, maybe download, and comment. */
export const linkRoutes =
  (deps: {
    service: SharingService;
    auth: AuthService;
    storage: ObjectStore;
  }): FastifyPluginAsyncZod =>
  (app) => {
    const { service } = deps;
    const tags = ['share links'];
    // Share URLs are secrets: never leak them in a Referer, never let them be indexed.
    app.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('referrer-policy', 'no-referrer');
      reply.header('x-robots-tag', 'noindex, nofollow');
      done(null, payload);
    });

    app.get(
      '/links/hash/:hash',
      { schema: { tags, params: hashParams, response: { 200: sharedVersionSchema, ...errors } } },
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
          response: errors,
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
      { schema: { tags, params: hashParams, response: errors } },
      async (request, reply) => {
        const { link, version, project } = await service.open(request.params.hash, request.ip);
        if (!link.download_enabled) throw new HttpError(403, SHARE_MESSAGES.downloadNotAllowed);
        const download = downloadOf(version, project.name);
        return sendObject(reply, deps.storage, download.key, request.headers.range, {
          contentType: download.contentType,
          downloadName: download.fileName,
        });
      },
    );

    app.get(
      '/links/hash/:hash/comments',
      {
        schema: { tags, params: hashParams, response: { 200: z.array(commentSchema), ...errors } },
      },
      async (request) => {
        const { link, version } = await service.open(request.params.hash, request.ip);
        return service.visitorComments({ link, version });
      },
    );

    app.post(
      '/links/hash/:hash/comments',
      {
        schema: {
          tags,
          params: hashParams,
          body: visitorCommentBodySchema,
          response: { 201: commentSchema, ...errors },
        },
      },
      async (request, reply) => {
        const opened = await service.open(request.params.hash, request.ip);
        const user = await deps.auth.currentUser(toFetchHeaders(request));
        const comment = await service.addVisitorComment(opened, request.ip, {
          userId: user?.id ?? null,
          visitorName: user ? null : (request.body.visitor_name ?? null),
          content: request.body.content,
          timestamp: request.body.timestamp,
          parentId: request.body.parent_id,
        });
        return reply.status(201).send(comment);
      },
    );
    return Promise.resolve();
  };
