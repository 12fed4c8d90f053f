import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createPatchBodySchema,
  createRepoBodySchema,
  patchesResponseSchema,
  patchSchema,
  repositoryDataResponseSchema,
  repositoryListResponseSchema,
} from '@takes/contract';
import { userOf } from '../../auth/guard';
import type { HistoryService } from './history.service';
import type { ReposService } from './repos.service';
import { errors, repoParams } from './route-params';

/**
 * The `/audio-git/...` paths the desktop app reads: repositories and their patches. Registered
 * by repoRoutes inside its signed-in scope, whose guard these routes inherit.
 */
export const audioGitRoutes =
  (deps: { repos: ReposService; history: HistoryService }): FastifyPluginAsyncZod =>
  (app) => {
    const { repos, history } = deps;
    const tags = ['repositories'];

    // ---- the audio-git paths the desktop app reads ----
    app.get(
      '/audio-git/repositories',
      { schema: { tags, response: { 200: repositoryListResponseSchema, ...errors } } },
      async (request) => ({ data: await repos.list(userOf(request).id) }),
    );
    app.post(
      '/audio-git/repositories',
      {
        schema: {
          tags,
          body: createRepoBodySchema,
          response: { 201: repositoryDataResponseSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ data: await repos.create(userOf(request).id, request.body.name) }),
    );
    app.get(
      '/audio-git/repositories/:id',
      {
        schema: {
          tags,
          params: repoParams,
          response: { 200: repositoryDataResponseSchema, ...errors },
        },
      },
      async (request) => ({ data: await repos.get(userOf(request).id, request.params.id) }),
    );
    app.get(
      '/audio-git/repositories/:id/patches',
      {
        schema: {
          tags,
          params: repoParams,
          querystring: z.object({
            limit: z.coerce.number().int().min(1).max(1000).default(50),
            offset: z.coerce.number().int().min(0).default(0),
          }),
          response: { 200: patchesResponseSchema, ...errors },
        },
      },
      (request) =>
        history.patches(
          userOf(request).id,
          request.params.id,
          request.query.limit,
          request.query.offset,
        ),
    );
    app.post(
      '/audio-git/repositories/:id/patches',
      {
        schema: {
          tags,
          params: repoParams,
          body: createPatchBodySchema,
          response: { 201: z.object({ data: patchSchema }), ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send({
          data: await history.createPatch(userOf(request).id, request.params.id, request.body),
        }),
    );
    return Promise.resolve();
  };
