import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { NotFound } from '../../errors';
import type { InstanceAdmins } from './instance-admins';
import type { DebugService } from './debug.service';
import type { SearchService } from './search.service';
import type { StatsService } from './stats.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema };
const debugErrors = { ...errors, 404: errorBodySchema };
const status = z.enum(['ok', 'error']);
const debugReportSchema = z.object({
  database: z.object({
    dialect: z.enum(['sqlite', 'postgres']),
    migrations: z.array(z.string()),
    latest: z.string().nullable(),
  }),
  storage: z.object({ kind: z.string(), status, detail: z.string().optional() }),
  ffmpeg: z.object({ status, version: z.string().nullable(), source: z.string() }),
  jobs: z.object({
    queue: z.string(),
    queued: z.number(),
    active: z.number(),
    completed: z.number(),
    failed: z.number(),
  }),
});

export const workspaceRoutes =
  (deps: {
    stats: StatsService;
    search: SearchService;
    debug: DebugService;
    requireUser: preHandlerAsyncHookHandler;
    admins: InstanceAdmins;
  }): FastifyPluginAsyncZod =>
  (app) => {
    app.addHook('preHandler', deps.requireUser);
    // The debug page is the instance owner's: for anyone else it does not exist.
    const requireAdmin = async (request: FastifyRequest) => {
      if (!(await deps.admins.includes(userOf(request).id))) throw new NotFound();
    };
    app.get(
      '/stats',
      {
        schema: {
          tags: ['dashboard'],
          summary: "The dashboard's figures",
          response: {
            200: z.object({
              projects: z.number(),
              tracks: z.number(),
              lastUpdate: z.string().nullable(),
              versionsLastMonth: z.number(),
            }),
            ...errors,
          },
        },
      },
      (request) => deps.stats.stats(userOf(request).id),
    );
    app.get(
      '/search',
      {
        schema: {
          tags: ['search'],
          summary: "Search the caller's projects, branches and versions (names, messages, tags)",
          querystring: z.object({
            q: z.string().trim().min(1, 'Search text is required').max(200),
          }),
          response: {
            200: z.object({
              projects: z.array(
                z.object({ id: z.string(), name: z.string(), description: z.string().nullable() }),
              ),
              branches: z.array(
                z.object({
                  id: z.string(),
                  name: z.string(),
                  project_id: z.string(),
                  project_name: z.string(),
                }),
              ),
              versions: z.array(
                z.object({
                  id: z.string(),
                  project_id: z.string(),
                  branch_id: z.string(),
                  version_number: z.number(),
                  message: z.string().nullable(),
                  tags: z.array(z.string()),
                  created_at: z.string(),
                  project_name: z.string(),
                  branch_name: z.string(),
                }),
              ),
            }),
            ...errors,
          },
        },
      },
      (request) => deps.search.search(userOf(request).id, request.query.q),
    );
    app.get(
      '/debug',
      {
        schema: {
          tags: ['debug'],
          summary: "Server state for the debug page (the instance's admins only)",
          response: { 200: debugReportSchema, ...debugErrors },
        },
        preHandler: requireAdmin,
      },
      () => deps.debug.debug(),
    );
    app.post(
      '/debug/round-trip',
      {
        schema: {
          tags: ['debug'],
          summary: "Insert and delete a test project (the instance's admins only)",
          response: {
            200: z.object({ projectId: z.string(), insertMs: z.number(), deleteMs: z.number() }),
            ...debugErrors,
          },
        },
        preHandler: requireAdmin,
      },
      (request) => deps.debug.roundTrip(userOf(request).id),
    );
    return Promise.resolve();
  };
