import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import type { ProjectsService } from './projects.service';

const api = endpoints.projects;

/** Projects and their branches; every route needs a signed-in user (the policy decides the rest). */
export const projectRoutes =
  (deps: { service: ProjectsService }): FastifyPluginAsync =>
  (app) => {
    const { service } = deps;

    route(app, api.listProjects, {}, (request) => service.list(userOf(request).id, request.query));
    route(app, api.listSharedProjects, {}, (request) => service.listShared(userOf(request).id));
    route(app, api.createProject, {}, (request) =>
      service.create(userOf(request).id, request.body),
    );
    route(app, api.getProject, {}, (request) =>
      service.get(userOf(request).id, request.params.projectId),
    );
    route(app, api.updateProject, {}, (request) =>
      service.update(userOf(request).id, request.params.projectId, request.body),
    );
    route(app, api.toggleProjectPrivacy, {}, (request) =>
      service.togglePrivacy(userOf(request).id, request.params.projectId),
    );
    route(app, api.deleteProject, {}, (request) =>
      service.delete(userOf(request).id, request.params.projectId),
    );

    route(app, api.listBranches, {}, (request) =>
      service.listBranches(userOf(request).id, request.params.projectId),
    );
    route(app, api.createBranch, {}, (request) =>
      service.createBranch(userOf(request).id, request.params.projectId, request.body.name),
    );
    route(app, api.renameBranch, {}, (request) =>
      service.renameBranch(userOf(request).id, request.params.branchId, request.body.name),
    );
    route(app, api.setDefaultBranch, {}, (request) =>
      service.setDefaultBranch(userOf(request).id, request.params.branchId),
    );
    route(app, api.deleteBranch, {}, (request) =>
      service.deleteBranch(userOf(request).id, request.params.branchId),
    );
    return Promise.resolve();
  };
