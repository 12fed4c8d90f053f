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
  createPatchBodySchema,
  createRepoBodySchema,
  createRepoBranchBodySchema,
  errorBodySchema,
  MAX_COVER_BYTES,
  patchesResponseSchema,
  patchSchema,
  publishBodySchema,
  publishResponseSchema,
  recentBouncesResponseSchema,
  recentQuerySchema,
  REPO_MESSAGES,
  repoBranchSchema,
  repoResponseSchema,
  repositoryDataResponseSchema,
  repositoryListResponseSchema,
  timelineCommitSchema,
  bounceSchema,
  uploadPutResponseSchema,
} from '@takes/contract';
import { userOf } from '../../auth/guard';
import { HttpError } from '../../http/errors';
import { sendObject, sendStoredAudio } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import { guardUpload } from '../../storage/scratch-file';
import type { PublishService } from './publish.service';
import type { ReposService } from './repos.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  410: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
  416: errorBodySchema,
};
const id = z.string().min(1).max(64);
const repoParams = z.object({ id });
const bounceParams = z.object({ id, bounceId: id });

export interface RepoRouteDeps {
  repos: ReposService;
  publish: PublishService;
  storage: ObjectStore;
  requireUser: preHandlerAsyncHookHandler;
}

/** Signed-in routes: repositories, branches, commits, patches, bounces, covers, publishing. */
export const repoRoutes =
  (deps: RepoRouteDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const { repos, publish } = deps;
    app.addHook('preHandler', deps.requireUser);
    await app.register(multipart, {
      limits: { files: 1, fields: 0, fileSize: MAX_COVER_BYTES + 1 },
    });
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
        repos.patches(
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
          data: await repos.createPatch(userOf(request).id, request.params.id, request.body),
        }),
    );

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
        branches: await repos.branches(userOf(request).id, request.params.id),
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
          branch: await repos.createBranch(
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
        commits: await repos.commits(
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
          commit: await repos.createCommit(userOf(request).id, request.params.id, request.body),
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
        bounces: await repos.commitBounces(
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
        bounces: await repos.bounces(userOf(request).id, request.params.id, request.query.branch),
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
        bounce: await repos.bounce(userOf(request).id, request.params.id, request.params.bounceId),
      }),
    );
    app.delete(
      '/repos/:id/bounces/:bounceId',
      { schema: { tags, params: bounceParams, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await repos.deleteBounce(userOf(request).id, request.params.id, request.params.bounceId);
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
        const audio = await repos.bounceAudio(
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
        bounces: await repos.recent(userOf(request).id, request.query.limit, request.query.all),
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
