import multipart from '@fastify/multipart';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import {
  branchesResponseSchema,
  bouncesResponseSchema,
  completeBodySchema,
  completeResponseSchema,
  commitsResponseSchema,
  coverResponseSchema,
  createCommitBodySchema,
  createRepoBodySchema,
  createRepoBranchBodySchema,
  errorBodySchema,
  MAX_COVER_BYTES,
  publishBodySchema,
  publishResponseSchema,
  recentBouncesResponseSchema,
  recentQuerySchema,
  REPO_MESSAGES,
  repoBranchSchema,
  repoResponseSchema,
  timelineCommitSchema,
  bounceSchema,
  uploadPutResponseSchema,
} from '@takes/contract';
import { userOf } from '../../auth/guard';
import { audioGitRoutes } from './audio-git.routes';
import { errors, id, repoParams } from './route-params';
import { HttpError } from '../../http/errors';
import { sendObject, sendStoredAudio } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import { guardUpload } from '../../storage/scratch-file';
import type { BouncesService } from './bounces.service';
import type { HistoryService } from './history.service';
import type { PublishService } from './publish.service';
import type { ReposService } from './repos.service';

const bounceParams = z.object({ id, bounceId: id });

export interface RepoRouteDeps {
  repos: ReposService;
  history: HistoryService;
  bounces: BouncesService;
  publish: PublishService;
  storage: ObjectStore;
  requireUser: preHandlerAsyncHookHandler;
}

/**
 * Signed-in routes under `/repos` and `/bounces`: repositories, covers, branches, commits,
 * bounces, the recent feed and publishing (the desktop app's `/audio-git` paths are in
 * audio-git.routes.ts).
 */
export const repoRoutes =
  (deps: RepoRouteDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const { repos, history, bounces, publish } = deps;
    app.addHook('preHandler', deps.requireUser);
    await app.register(multipart, {
      limits: { files: 1, fields: 0, fileSize: MAX_COVER_BYTES + 1 },
    });
    // Inside this signed-in scope (it inherits the guard above).
    await app.register(audioGitRoutes({ repos, history }));
    const tags = ['repositories'];

    // ---- repositories ----
    app.post(
      '/repos',
      {
        schema: {
          tags,
          body: createRepoBodySchema,
          response: { 201: repoResponseSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ repo: await repos.create(userOf(request).id, request.body.name) }),
    );
    app.get(
      '/repos/:id',
      { schema: { tags, params: repoParams, response: { 200: repoResponseSchema, ...errors } } },
      async (request) => ({ repo: await repos.get(userOf(request).id, request.params.id) }),
    );
    app.patch(
      '/repos/:id',
      {
        schema: {
          tags,
          params: repoParams,
          body: createRepoBodySchema,
          response: { 200: repoResponseSchema, ...errors },
        },
      },
      async (request) => ({
        repo: await repos.rename(userOf(request).id, request.params.id, request.body.name),
      }),
    );
    app.delete(
      '/repos/:id',
      { schema: { tags, params: repoParams, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await repos.delete(userOf(request).id, request.params.id);
        return reply.status(204).send(null);
      },
    );
    app.post(
      '/repos/:id/cover',
      { schema: { tags, params: repoParams, response: { 200: coverResponseSchema, ...errors } } },
      async (request) => {
        const file = await request.file();
        if (!file || file.fieldname !== 'coverImage')
          throw new HttpError(400, REPO_MESSAGES.coverRequired);
        return {
          coverUrl: await repos.setCover(
            userOf(request).id,
            request.params.id,
            // Fails (400) instead of hanging when the body ends inside the image.
            guardUpload(file.file),
          ),
        };
      },
    );
    app.get(
      '/repos/:id/cover',
      { schema: { tags, params: repoParams, response: { 404: errorBodySchema } } },
      async (request, reply) => {
        const cover = await repos.cover(userOf(request).id, request.params.id);
        return sendObject(reply, deps.storage, cover.key, request.headers.range, {
          contentType: cover.contentType,
          cacheControl: 'private, max-age=31536000, immutable',
        });
      },
    );

    // ---- branches and commits ----
    app.get(
      '/repos/:id/branches',
      {
        schema: { tags, params: repoParams, response: { 200: branchesResponseSchema, ...errors } },
      },
      async (request) => ({
        branches: await history.branches(userOf(request).id, request.params.id),
      }),
    );
    app.post(
      '/repos/:id/branches',
      {
        schema: {
          tags,
          params: repoParams,
          body: createRepoBranchBodySchema,
          response: { 201: z.object({ branch: repoBranchSchema }), ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send({
          branch: await history.createBranch(
            userOf(request).id,
            request.params.id,
            request.body.name,
            request.body.from,
          ),
        }),
    );
    app.get(
      '/repos/:id/commits',
      {
        schema: {
          tags,
          params: repoParams,
          querystring: z.object({
            branch: z.string().min(1).max(100).optional(),
            limit: z.coerce.number().int().min(1).max(1000).default(100),
          }),
          response: { 200: commitsResponseSchema, ...errors },
        },
      },
      async (request) => ({
        commits: await history.commits(
          userOf(request).id,
          request.params.id,
          request.query.branch,
          request.query.limit,
        ),
      }),
    );
    app.post(
      '/repos/:id/commits',
      {
        schema: {
          tags,
          params: repoParams,
          body: createCommitBodySchema,
          response: { 201: z.object({ commit: timelineCommitSchema }), ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send({
          commit: await history.createCommit(userOf(request).id, request.params.id, request.body),
        }),
    );
    app.get(
      '/repos/:id/commits/:sha/bounces',
      {
        schema: {
          tags,
          params: z.object({ id, sha: z.string().min(1).max(64) }),
          response: { 200: bouncesResponseSchema, ...errors },
        },
      },
      async (request) => ({
        bounces: await bounces.commitBounces(
          userOf(request).id,
          request.params.id,
          request.params.sha,
        ),
      }),
    );

    // ---- bounces ----
    app.get(
      '/repos/:id/bounces',
      {
        schema: {
          tags,
          params: repoParams,
          querystring: z.object({ branch: z.string().min(1).max(100).optional() }),
          response: { 200: bouncesResponseSchema, ...errors },
        },
      },
      async (request) => ({
        bounces: await bounces.bounces(userOf(request).id, request.params.id, request.query.branch),
      }),
    );
    app.get(
      '/repos/:id/bounces/:bounceId',
      {
        schema: {
          tags,
          params: bounceParams,
          response: { 200: z.object({ bounce: bounceSchema }), ...errors },
        },
      },
      async (request) => ({
        bounce: await bounces.bounce(
          userOf(request).id,
          request.params.id,
          request.params.bounceId,
        ),
      }),
    );
    app.delete(
      '/repos/:id/bounces/:bounceId',
      { schema: { tags, params: bounceParams, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await bounces.deleteBounce(userOf(request).id, request.params.id, request.params.bounceId);
        return reply.status(204).send(null);
      },
    );
    app.get(
      '/repos/:id/bounces/:bounceId/stream',
      {
        schema: {
          tags,
          params: bounceParams,
          querystring: z.object({
            quality: z.enum(['original', 'high', 'standard']).default('original'),
            token: z.string().optional(),
          }),
          response: { 404: errorBodySchema, 416: errorBodySchema },
        },
      },
      async (request, reply) => {
        const audio = await bounces.bounceAudio(
          userOf(request).id,
          request.params.id,
          request.params.bounceId,
          request.query.quality,
        );
        return sendStoredAudio(request, reply, deps.storage, audio);
      },
    );
    app.get(
      '/bounces/recent',
      {
        schema: {
          tags,
          querystring: recentQuerySchema,
          response: { 200: recentBouncesResponseSchema, ...errors },
        },
      },
      async (request) => ({
        bounces: await bounces.recent(userOf(request).id, request.query.limit, request.query.all),
      }),
    );

    // ---- publishing ----
    app.post(
      '/bounces/publish',
      {
        schema: {
          tags,
          body: publishBodySchema,
          response: { 201: publishResponseSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await publish.publish(userOf(request).id, request.body)),
    );
    app.post(
      '/bounces/complete',
      {
        schema: {
          tags,
          body: completeBodySchema,
          response: { 201: completeResponseSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send({ bounce: await publish.complete(userOf(request).id, request.body) }),
    );
  };

/**
 * The PUT of a bounce's raw bytes. Authorised by its single-use token, not a session (the
 * desktop app sends the file where publish told it to). The body is never parsed or
 * buffered: it streams to a scratch file while counted.
 */
export const bounceUploadRoutes =
  (deps: { publish: PublishService }): FastifyPluginAsyncZod =>
  (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    app.put(
      '/bounces/uploads/:uploadId',
      {
        schema: {
          tags: ['repositories'],
          summary: 'Upload the raw file of a publish (header x-upsert-token)',
          params: z.object({ uploadId: id }),
          response: { 200: uploadPutResponseSchema, ...errors },
        },
      },
      async (request) => {
        const token = request.headers['x-upsert-token'];
        const length = Number(request.headers['content-length']);
        return deps.publish.receive(
          request.params.uploadId,
          typeof token === 'string' && token ? token : undefined,
          (request.body as Readable | undefined) ?? request.raw,
          Number.isFinite(length) ? length : undefined,
        );
      },
    );
    return Promise.resolve();
  };
