import type { FastifyPluginAsync, preHandlerAsyncHookHandler } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import type { ProjectsService } from './projects.service';

const api = endpoints.projects;

/** Projects and their branches; every route needs a signed-in user (the policy decides the rest). */
export const projectRoutes =
  (deps: {
    service: ProjectsService;
    requireUser: preHandlerAsyncHookHandler;
  }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;
    const guarded = { preHandler: deps.requireUser };

    route(app, api.listProjects, guarded, (request) =>
      service.list(userOf(request).id, request.query),
    );
    route(app, api.listSharedProjects, guarded, (request) =>
      service.listShared(userOf(request).id),
    );
    route(app, api.createProject, guarded, (request) =>
      service.create(userOf(request).id, request.body),
    );
    route(app, api.getProject, guarded, (request) =>
      service.get(userOf(request).id, request.params.projectId),
    );
    route(app, api.updateProject, guarded, (request) =>
      service.update(userOf(request).id, request.params.projectId, request.body),
    );
    route(app, api.toggleProjectPrivacy, guarded, (request) =>
      service.togglePrivacy(userOf(request).id, request.params.projectId),
    );
    route(app, api.deleteProject, guarded, (request) =>
      service.delete(userOf(request).id, request.params.projectId),
    );

    route(app, api.listBranches, guarded, (request) =>
      service.listBranches(userOf(request).id, request.params.projectId),
    );
    route(app, api.createBranch, guarded, (request) =>
      service.createBranch(userOf(request).id, request.params.projectId, request.body.name),
    );
    route(app, api.renameBranch, guarded, (request) =>
      service.renameBranch(userOf(request).id, request.params.branchId, request.body.name),
    );
    route(app, api.setDefaultBranch, guarded, (request) =>
      service.setDefaultBranch(userOf(request).id, request.params.branchId),
    );
    route(app, api.deleteBranch, guarded, (request) =>
      service.deleteBranch(userOf(request).id, request.params.branchId),
    );
    return Promise.resolve();
  };
