import type { preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { commentSchema, ownerCommentBodySchema, visitorCommentBodySchema } from '@takes/contract';
import { userOf } from '../../auth/guard';
import type { AuthService } from '../auth/auth.service';
import { toFetchHeaders } from '../auth/fetch-bridge';
import { hashParams, hideShareUrls, shareErrors, versionParams } from '../sharing/sharing.routes';
import type { SharingService } from '../sharing/sharing.service';
import type { CommentsService } from './comments.service';

const commentParams = z.object({ commentId: z.string().min(1).max(64) });

/** The owner's comments on their versions (signed in). */
export const ownerCommentRoutes =
  (deps: {
    service: CommentsService;
    requireUser: preHandlerAsyncHookHandler;
  }): FastifyPluginAsyncZod =>
  (app) => {
    const { service } = deps;
    app.addHook('preHandler', deps.requireUser);
    const tags = ['sharing'];
    app.get(
      '/versions/:versionId/comments',
      {
        schema: {
          tags,
          params: versionParams,
          querystring: z.object({ resolved: z.enum(['include', 'exclude']).default('include') }),
          response: { 200: z.array(commentSchema), ...shareErrors },
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
          response: { 201: commentSchema, ...shareErrors },
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
      { schema: { tags, params: commentParams, response: { 204: z.null(), ...shareErrors } } },
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
          response: { 200: commentSchema, ...shareErrors },
        },
      },
      (request) =>
        service.setResolved(userOf(request).id, request.params.commentId, request.body.resolved),
    );
    return Promise.resolve();
  };

/** Comments through a share link: what the link shows, and a visitor's own. */
export const linkCommentRoutes =
  (deps: {
    service: CommentsService;
    sharing: SharingService;
    auth: AuthService;
  }): FastifyPluginAsyncZod =>
  (app) => {
    const { service } = deps;
    const tags = ['share links'];
    hideShareUrls(app);

    app.get(
      '/links/hash/:hash/comments',
      {
        schema: {
          tags,
          params: hashParams,
          response: { 200: z.array(commentSchema), ...shareErrors },
        },
      },
      async (request) => {
        const { link, version } = await deps.sharing.open(request.params.hash, request.ip);
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
          response: { 201: commentSchema, ...shareErrors },
        },
      },
      async (request, reply) => {
        const opened = await deps.sharing.open(request.params.hash, request.ip);
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
