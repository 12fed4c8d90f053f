import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import { toFetchHeaders, type AuthService } from '../auth';
import { hideShareUrls, type SharingService } from '../sharing';
import type { ReviewService } from './review.service';

const api = endpoints.review;

/** Members: a version's review status and history, setting it, comparing two versions. */
export const memberReviewRoutes =
  (deps: { service: ReviewService }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
    route(app, api.getVersionReview, {}, (request) =>
      service.review(userOf(request).id, request.params.versionId),
    );
    route(app, api.setVersionReview, {}, (request) =>
      service.setReview(userOf(request).id, request.params.versionId, request.body.status),
    );
    route(app, api.compareVersions, {}, (request) =>
      service.compare(
        userOf(request).id,
        request.params.projectId,
        request.query.a,
        request.query.b,
      ),
    );
    return Promise.resolve();
  };

/** A share link's listener sets the status when the link allows approval. */
export const linkReviewRoutes =
  (deps: {
    service: ReviewService;
    sharing: SharingService;
    auth: AuthService;
  }): FastifyPluginAsync =>
  (app) => {
    hideShareUrls(app);
    route(app, api.setShareLinkReview, {}, async (request) => {
      const opened = await deps.sharing.open(
        request.params.hash,
        request.ip,
        request.headers.cookie,
      );
      const user = await deps.auth.currentUser(toFetchHeaders(request));
      return deps.service.setVisitorReview(opened, request.ip, {
        status: request.body.status,
        userId: user?.id ?? null,
        visitorName: user ? null : (request.body.visitor_name ?? null),
      });
    });
    return Promise.resolve();
  };
