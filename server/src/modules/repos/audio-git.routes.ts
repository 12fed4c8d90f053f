import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { route } from '../../http/route';
import type { HistoryService } from './history.service';
import type { ReposService } from './repos.service';

const api = endpoints.audioGit;

/**
 * The `/audio-git/...` paths the desktop app reads: repositories and their patches. Registered
 * by repoRoutes inside its signed-in scope, whose guard these routes inherit.
 */
export const audioGitRoutes =
  (deps: { repos: ReposService; history: HistoryService }): FastifyPluginAsync =>
  (app) => {
    const { repos, history } = deps;

    route(app, api.listRepositories, {}, async (request) => ({
      data: await repos.list(userOf(request).id),
    }));
    route(app, api.createRepository, {}, async (request) => ({
      data: await repos.create(userOf(request).id, request.body.name),
    }));
    route(app, api.getRepository, {}, async (request) => ({
      data: await repos.get(userOf(request).id, request.params.id),
    }));
    route(app, api.listPatches, {}, (request) =>
      history.patches(
        userOf(request).id,
        request.params.id,
        request.query.limit,
        request.query.offset,
      ),
    );
    route(app, api.createPatch, {}, async (request) => ({
      data: await history.createPatch(userOf(request).id, request.params.id, request.body),
    }));
    return Promise.resolve();
  };
