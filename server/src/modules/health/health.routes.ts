import { errorBodySchema, healthResponseSchema } from '@takes/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { HealthService } from './health.service';

export const healthRoutes =
  (service: HealthService): FastifyPluginAsyncZod =>
  (app) => {
    app.get(
      '/health',
      {
        schema: {
          tags: ['system'],
          summary: 'Whether the database, object storage and ffmpeg are usable',
          response: { 200: healthResponseSchema, 503: healthResponseSchema, 500: errorBodySchema },
        },
      },
      async (_request, reply) => {
        const report = await service.report();
        return reply.status(report.status === 'ok' ? 200 : 503).send(report);
      },
    );
    return Promise.resolve();
  };
