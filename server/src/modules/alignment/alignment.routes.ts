import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import type { AlignmentService } from './alignment.service';

const api = endpoints.review;

/** Members: how a version lines up with another of its project, and what changed between them. */
export const alignmentRoutes =
  (deps: { service: AlignmentService }): FastifyPluginAsync =>
  (app) => {
    route(app, api.getVersionAlignment, {}, (request) =>
      deps.service.alignment(userOf(request).id, request.params.versionId, request.query.to),
    );
    route(app, api.getVersionChanges, {}, (request) =>
      deps.service.changes(userOf(request).id, request.params.versionId, request.query.against),
    );
    return Promise.resolve();
  };
