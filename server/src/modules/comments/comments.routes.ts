import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import { toFetchHeaders, type AuthService } from '../auth';
import { hideShareUrls, type SharingService } from '../sharing';
import type { CommentsService } from './comments.service';
import { visitorCommentInput } from './visitor-comment';

const api = endpoints.comments;

/** Members' comments on a project's versions (signed in; the access policy decides who may). */
export const ownerCommentRoutes =
  (deps: { service: CommentsService }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
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
