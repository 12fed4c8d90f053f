import type { FastifyPluginAsync, preHandlerAsyncHookHandler } from 'fastify';
import type { z } from 'zod';
import { endpoints, type visitorCommentBodySchema } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import type { AuthService } from '../auth/auth.service';
import { toFetchHeaders } from '../auth/fetch-bridge';
import { hideShareUrls } from '../sharing/sharing.routes';
import type { SharingService } from '../sharing/sharing.service';
import type { CommentsService, VisitorCommentInput } from './comments.service';

type VisitorCommentBody = z.infer<typeof visitorCommentBodySchema>;

const api = endpoints.comments;

/** Members' comments on a project's versions (signed in; the access policy decides who may). */
export const ownerCommentRoutes =
  (deps: {
    service: CommentsService;
    requireUser: preHandlerAsyncHookHandler;
  }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
    app.addHook('preHandler', deps.requireUser);
    route(app, api.listVersionComments, {}, (request) =>
      service.memberComments(
        userOf(request).id,
        request.params.versionId,
        request.query.resolved === 'include',
        request.query.include === 'previous',
      ),
    );
    route(app, api.addVersionComment, {}, (request) =>
      service.addMemberComment(userOf(request).id, request.params.versionId, {
        content: request.body.content,
        timestamp: request.body.timestamp,
        endTimestamp: request.body.end_timestamp,
        parentId: request.body.parent_id,
        teamOnly: request.body.team_only,
      }),
    );
    route(app, api.deleteComment, {}, (request) =>
      service.deleteComment(userOf(request).id, request.params.commentId),
    );
    route(app, api.setCommentResolved, {}, (request) =>
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
  }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
    hideShareUrls(app);

    route(app, api.listShareLinkComments, {}, async (request) => {
      const { link, version } = await deps.sharing.open(
        request.params.hash,
        request.ip,
        request.headers.cookie,
      );
      return service.visitorComments({ link, version });
    });

    route(app, api.addShareLinkComment, {}, async (request) => {
      const opened = await deps.sharing.open(
        request.params.hash,
        request.ip,
        request.headers.cookie,
      );
      return service.addVisitorComment(
        opened,
        request.ip,
        visitorCommentInput(request.body, await deps.auth.currentUser(toFetchHeaders(request))),
      );
    });
    return Promise.resolve();
  };

/**
 * A visitor's comment from its body: a signed-in listener's account (their given name is
 * ignored; the service keeps the account only if it may comment on the project), anyone else
 * under the name they gave.
 */
export function visitorCommentInput(
  body: VisitorCommentBody,
  user: { id: string } | null | undefined,
): VisitorCommentInput {
  return {
    userId: user?.id ?? null,
    visitorName: user ? null : (body.visitor_name ?? null),
    content: body.content,
    timestamp: body.timestamp,
    endTimestamp: body.end_timestamp,
    parentId: body.parent_id,
  };
}
