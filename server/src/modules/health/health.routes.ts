import { errorBodySchema, healthResponseSchema, type HealthResponse } from '@takes/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../auth/auth.service';
import { toFetchHeaders } from '../auth/fetch-bridge';
import type { InstanceAdmins } from '../workspace/instance-admins';
import type { HealthService } from './health.service';

export const healthRoutes =
  (deps: {
    service: HealthService;
    auth: Pick<AuthService, 'currentUser'>;
    admins: InstanceAdmins;
  }): FastifyPluginAsyncZod =>
  (app) => {
    // Load balancers and strangers see the status names; error messages, versions and the
    // kinds of database and storage are for the instance's admins.
    const mayReadDetails = async (request: FastifyRequest): Promise<boolean> => {
      if (!request.headers.cookie && !request.headers.authorization) return false;
      try {
        const user = await deps.auth.currentUser(toFetchHeaders(request));
        return await deps.admins.includes(user?.id);
      } catch {
        // The database is down: the report says so, without details.
        return false;
      }
    };

    app.get(
      '/health',
      {
        schema: {
          tags: ['system'],
          summary:
            "Whether the database, object storage and ffmpeg are usable (details for the instance's admins)",
          response: { 200: healthResponseSchema, 503: healthResponseSchema, 500: errorBodySchema },
        },
      },
      async (request, reply) => {
        const report = await deps.service.report();
        const shown = (await mayReadDetails(request)) ? report : withoutDetails(report);
        return reply.status(report.status === 'ok' ? 200 : 503).send(shown);
      },
    );
    return Promise.resolve();
  };

function withoutDetails(report: HealthResponse): HealthResponse {
  const { database, storage, ffmpeg } = report.checks;
  return {
    status: report.status,
    checks: {
      database: { status: database.status },
      storage: { status: storage.status },
      ffmpeg: { status: ffmpeg.status },
    },
  };
}
