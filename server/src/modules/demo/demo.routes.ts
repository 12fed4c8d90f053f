import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { route } from '../../http/route';
import { forwardCookies, toFetchHeaders } from '../auth';
import type { DemoService } from './demo.service';

/** 'Try demo': a fresh demo account of the caller's own, signed in. */
export const demoRoutes =
  (deps: { service: DemoService }): FastifyPluginAsync =>
  (app) => {
    route(app, endpoints.demo.startDemo, {}, async (request, reply) => {
      const result = await deps.service.start({
        headers: toFetchHeaders(request),
        ip: request.ip,
      });
      forwardCookies(reply, result.cookies);
      return result.body;
    });
    return Promise.resolve();
  };
