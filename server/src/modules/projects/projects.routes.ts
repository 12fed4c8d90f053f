import type { preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  branchNameBodySchema,
  branchSummarySchema,
  branchWithVersionsSchema,
  createProjectBodySchema,
  errorBodySchema,
  projectSchema,
  updateProjectBodySchema,
} from '@takes/contract';
import { userOf } from '../../auth/guard';
import type { ProjectsService } from './projects.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const projectParams = z.object({ projectId: z.string().min(1).max(64) });
const branchParams = z.object({ branchId: z.string().min(1).max(64) });

export const projectRoutes =
  (deps: {
    service: ProjectsService;
    requireUser: preHandlerAsyncHookHandler;
  }): FastifyPluginAsyncZod =>
  (app) => {
    const { service } = deps;
    app.addHook('preHandler', deps.requireUser);
    const tags = ['projects'];

    app.get(
      '/projects',
      { schema: { tags, response: { 200: z.array(projectSchema), ...errors } } },
      (request) => service.list(userOf(request).id),
    );
    app.post(
      '/projects',
      {
        schema: {
          tags,
          body: createProjectBodySchema,
          response: { 201: projectSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.create(userOf(request).id, request.body)),
    );
    app.get(
      '/projects/:projectId',
      { schema: { tags, params: projectParams, response: { 200: projectSchema, ...errors } } },
      (request) => service.get(userOf(request).id, request.params.projectId),
    );
    app.patch(
      '/projects/:projectId',
      {
        schema: {
          tags,
          params: projectParams,
          body: updateProjectBodySchema,
          response: { 200: projectSchema, ...errors },
        },
      },
      (request) => service.update(userOf(request).id, request.params.projectId, request.body),
    );
    app.post(
      '/projects/:projectId/toggle-privacy',
      { schema: { tags, params: projectParams, response: { 200: projectSchema, ...errors } } },
      (request) => service.togglePrivacy(userOf(request).id, request.params.projectId),
    );
    app.delete(
      '/projects/:projectId',
      { schema: { tags, params: projectParams, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await service.delete(userOf(request).id, request.params.projectId);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/projects/:projectId/branches',
      {
        schema: {
          tags: ['branches'],
          params: projectParams,
          response: { 200: z.array(branchWithVersionsSchema), ...errors },
        },
      },
      (request) => service.listBranches(userOf(request).id, request.params.projectId),
    );
    app.post(
      '/projects/:projectId/branches',
      {
        schema: {
          tags: ['branches'],
          params: projectParams,
          body: branchNameBodySchema,
          response: { 201: branchSummarySchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await service.createBranch(
              userOf(request).id,
              request.params.projectId,
              request.body.name,
            ),
          ),
    );
    app.patch(
      '/branches/:branchId',
      {
        schema: {
          tags: ['branches'],
          params: branchParams,
          body: branchNameBodySchema,
          response: { 200: branchSummarySchema, ...errors },
        },
      },
      (request) =>
        service.renameBranch(userOf(request).id, request.params.branchId, request.body.name),
    );
    app.post(
      '/branches/:branchId/default',
      {
        schema: {
          tags: ['branches'],
          params: branchParams,
          response: { 200: branchSummarySchema, ...errors },
        },
      },
      (request) => service.setDefaultBranch(userOf(request).id, request.params.branchId),
    );
    app.delete(
      '/branches/:branchId',
      {
        schema: {
          tags: ['branches'],
          params: branchParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.deleteBranch(userOf(request).id, request.params.branchId);
        return reply.status(204).send(null);
      },
    );
    return Promise.resolve();
  };
