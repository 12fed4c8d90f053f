import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { Readable } from 'node:stream';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { audioGitRoutes } from './audio-git.routes';
import { COVER_UPLOAD_LIMITS, coverFileOf, sendCover } from '../../http/cover-upload';
import { route } from '../../http/route';
import { stringifyWithRaw } from '../../http/raw-json';
import { sendStoredAudio } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import type { BouncesService } from './bounces.service';
import type { HistoryService } from './history.service';
import type { PublishService } from './publish.service';
import type { ReposService } from './repos.service';

const api = endpoints.repos;
const bouncesApi = endpoints.bounces;

export interface RepoRouteDeps {
  repos: ReposService;
  history: HistoryService;
  bounces: BouncesService;
  publish: PublishService;
  storage: ObjectStore;
}

/**
 * Signed-in routes under `/repos` and `/bounces`: repositories, covers, branches, commits,
 * bounces, the recent feed and publishing (the desktop app's `/audio-git` paths are in
 * audio-git.routes.ts).
 */
export const repoRoutes =
  (deps: RepoRouteDeps): FastifyPluginAsync =>
  async (app) => {
    const { repos, history, bounces, publish } = deps;
    await app.register(multipart, { limits: COVER_UPLOAD_LIMITS });
    // Inside this signed-in scope (it inherits the guard above).
    await app.register(audioGitRoutes({ repos, history }));

    // ---- repositories ----
    route(app, api.createRepo, {}, async (request) => ({
      repo: await repos.create(userOf(request).id, request.body.name),
    }));
    route(app, api.getRepo, {}, async (request) => ({
      repo: await repos.get(userOf(request).id, request.params.id),
    }));
    route(app, api.renameRepo, {}, async (request) => ({
      repo: await repos.rename(userOf(request).id, request.params.id, request.body.name),
    }));
    route(app, api.deleteRepo, {}, (request) =>
      repos.delete(userOf(request).id, request.params.id),
    );
    route(app, api.uploadRepoCover, {}, async (request) => ({
      cover_url: await repos.setCover(
        userOf(request).id,
        request.params.id,
        await coverFileOf(request),
      ),
    }));
    route(app, api.getRepoCover, {}, async (request, reply) =>
      sendCover(
        request,
        reply,
        deps.storage,
        await repos.cover(userOf(request).id, request.params.id),
      ),
    );

    // ---- branches and commits ----
    route(app, api.listRepoBranches, {}, async (request) => ({
      branches: await history.branches(userOf(request).id, request.params.id),
    }));
    route(app, api.createRepoBranch, {}, async (request) => ({
      branch: await history.createBranch(
        userOf(request).id,
        request.params.id,
        request.body.name,
        request.body.from,
      ),
    }));
    route(app, api.listRepoCommits, {}, async (request) => ({
      commits: await history.commits(
        userOf(request).id,
        request.params.id,
        request.query.branch,
        request.query.limit,
      ),
    }));
    route(app, api.createRepoCommit, {}, async (request) => ({
      commit: await history.createCommit(userOf(request).id, request.params.id, request.body),
    }));
    route(app, api.listCommitBounces, {}, async (request) => ({
      bounces: await bounces.commitBounces(
        userOf(request).id,
        request.params.id,
        request.params.sha,
      ),
    }));

    // ---- bounces ----
    route(app, api.listRepoBounces, {}, async (request) => ({
      bounces: await bounces.bounces(userOf(request).id, request.params.id, request.query.branch),
    }));
    route(app, api.getBounce, {}, async (request) => ({
      bounce: await bounces.bounce(userOf(request).id, request.params.id, request.params.bounceId),
    }));
    route(app, api.deleteBounce, {}, (request) =>
      bounces.deleteBounce(userOf(request).id, request.params.id, request.params.bounceId),
    );
    route(app, api.streamBounce, {}, async (request, reply) => {
      const audio = await bounces.bounceAudio(
        userOf(request).id,
        request.params.id,
        request.params.bounceId,
        request.query.quality,
      );
      return sendStoredAudio(request, reply, deps.storage, audio);
    });
    // Written by hand: the feed's stored waveform previews go into the answer as stored text.
    route(app, bouncesApi.listRecentBounces, {}, async (request, reply) => {
      const items = await bounces.recent(
        userOf(request).id,
        request.query.limit,
        request.query.all,
      );
      return reply
        .type('application/json; charset=utf-8')
        .send(stringifyWithRaw({ bounces: items }));
    });

    // ---- publishing ----
    route(app, bouncesApi.publishBounce, {}, (request) =>
      publish.publish(userOf(request).id, request.body),
    );
    route(app, bouncesApi.completeBounce, {}, async (request) => ({
      bounce: await publish.complete(userOf(request).id, request.body),
    }));
  };

/**
 * The PUT of a bounce's raw bytes. Authorised by its single-use token, not a session (the
 * desktop app sends the file where publish told it to). The body is never parsed or
 * buffered: it streams to a scratch file while counted.
 */
export const bounceUploadRoutes =
  (deps: { publish: PublishService }): FastifyPluginAsync =>
  (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    route(app, bouncesApi.uploadBounceFile, {}, (request) => {
      const token = request.headers['x-upsert-token'];
      const length = Number(request.headers['content-length']);
      return deps.publish.receive(
        request.params.uploadId,
        typeof token === 'string' && token ? token : undefined,
        (request.body as Readable | undefined) ?? request.raw,
        Number.isFinite(length) ? length : undefined,
      );
    });
    return Promise.resolve();
  };
