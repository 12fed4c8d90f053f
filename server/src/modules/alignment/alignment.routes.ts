import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import type { AlignmentService } from './alignment.service';

const api = endpoints.review;

/** Members: how a version lines up with another of its project. */
export const alignmentRoutes =
  (deps: { service: AlignmentService }): FastifyPluginAsync =>
  (app) => {
    route(app, api.getVersionAlignment, {}, (request) =>
      deps.service.alignment(userOf(request).id, request.params.versionId, request.query.to),
    );
    return Promise.resolve();
  };
