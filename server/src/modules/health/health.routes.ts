import { endpoints, type HealthResponse } from '@takes/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { route } from '../../http/route';
import { toFetchHeaders, type AuthService } from '../auth';
import type { InstanceAdmins } from '../workspace/instance-admins';
import type { HealthService } from './health.service';

/** Liveness and readiness for load balancers, with details for the instance's admins. */
export const healthRoutes =
  (deps: {
    service: HealthService;
    auth: Pick<AuthService, 'currentUser'>;
    admins: InstanceAdmins;
  }): FastifyPluginAsync =>
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

    route(app, endpoints.health.getHealth, {}, async (request, reply) => {
      const report = await deps.service.report();
      const shown = (await mayReadDetails(request)) ? report : withoutDetails(report);
      return reply.status(report.status === 'ok' ? 200 : 503).send(shown);
    });
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
