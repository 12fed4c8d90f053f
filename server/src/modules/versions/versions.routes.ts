import multipart from '@fastify/multipart';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createVersionBodySchema,
  errorBodySchema,
  MAX_UPLOAD_BYTES,
  processingResponseSchema,
  qualitiesSchema,
  recentVersionSchema,
  uploadResponseSchema,
  versionSchema,
  versionWithProjectSchema,
} from '@takes/contract';
import { userOf } from '../../auth/guard';
import { HttpError } from '../../http/errors';
import { sendObject, sendStoredAudio } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import type { ReceivedFile, UploadFields, UploadService } from './upload.service';
import type { VersionsService } from './versions.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
  416: errorBodySchema,
};
const versionParams = z.object({ versionId: z.string().min(1).max(64) });
const tags = ['versions'];
const UPLOAD_FIELDS = new Set([
  'projectId',
  'branchId',
  'commitMessage',
  'tags',
  'projectName',
  'projectDescription',
  'isPrivate',
]);

export const versionRoutes =
  (deps: {
    versions: VersionsService;
    uploads: UploadService;
    storage: ObjectStore;
    requireUser: preHandlerAsyncHookHandler;
    signedDownloads: boolean;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const { versions, uploads } = deps;
    app.addHook('preHandler', deps.requireUser);
    // One byte over the limit reaches our counter, which answers 413.
    await app.register(multipart, {
      limits: {
        fileSize: MAX_UPLOAD_BYTES + 1,
        files: 1,
        fields: 20,
        fieldSize: 64 * 1024,
        parts: 25,
      },
    });

    app.get(
      '/versions/recent',
      {
        schema: {
          tags,
          querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
          response: { 200: z.array(recentVersionSchema), ...errors },
        },
      },
      (request) => versions.recent(userOf(request).id, request.query.limit),
    );
    app.get(
      '/versions/project/:projectId/branch/:branchId',
      {
        schema: {
          tags,
          params: z.object({ projectId: z.string().max(64), branchId: z.string().max(64) }),
          response: { 200: z.array(versionSchema), ...errors },
        },
      },
      (request) =>
        versions.listForBranch(
          userOf(request).id,
          request.params.projectId,
          request.params.branchId,
        ),
    );
    app.post(
      '/versions/create',
      {
        schema: {
          tags,
          body: createVersionBodySchema,
          response: { 201: versionSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await versions.createFromUrl(userOf(request).id, request.body)),
    );

    app.post(
      '/versions/upload',
      {
        schema: {
          tags,
          summary: 'Upload a new version or a new track (multipart)',
          response: { 201: uploadResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart())
          throw new HttpError(400, 'Send the upload as multipart/form-data');
        const fields: UploadFields = {};
        let file: ReceivedFile | undefined;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              if (part.fieldname !== 'audioFile' || file) {
                part.file.resume();
                continue;
              }
              file = await uploads.receive(part.file, part.filename, userOf(request).id);
            } else if (UPLOAD_FIELDS.has(part.fieldname) && typeof part.value === 'string') {
              fields[part.fieldname as keyof UploadFields] = part.value;
            }
          }
          const result = await uploads.createVersion(userOf(request).id, file, fields);
          return await reply.status(201).send(result);
        } finally {
          await uploads.discard(file);
        }
      },
    );

    app.get(
      '/versions/:versionId',
      {
        schema: {
          tags,
          params: versionParams,
          response: { 200: versionWithProjectSchema, ...errors },
        },
      },
      (request) => versions.getWithProject(userOf(request).id, request.params.versionId),
    );
    app.delete(
      '/versions/:versionId',
      { schema: { tags, params: versionParams, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await versions.delete(userOf(request).id, request.params.versionId);
        return reply.status(204).send(null);
      },
    );
    app.get(
      '/versions/:versionId/processing',
      {
        schema: {
          tags,
          params: versionParams,
          response: { 200: processingResponseSchema, ...errors },
        },
      },
      (request) => versions.processing(userOf(request).id, request.params.versionId),
    );
    app.get(
      '/versions/:versionId/qualities',
      { schema: { tags, params: versionParams, response: { 200: qualitiesSchema, ...errors } } },
      (request) => versions.qualities(userOf(request).id, request.params.versionId),
    );
    app.get(
      '/versions/:versionId/stream',
      {
        schema: {
          tags,
          params: versionParams,
          querystring: z.object({
            quality: z.enum(['original', 'high', 'standard']).default('standard'),
            token: z.string().optional(),
          }),
          response: { 404: errorBodySchema, 416: errorBodySchema },
        },
      },
      async (request, reply) => {
        const audio = await versions.audio(
          userOf(request).id,
          request.params.versionId,
          request.query.quality,
        );
        return sendStoredAudio(request, reply, deps.storage, audio);
      },
    );
    app.get(
      '/versions/:versionId/peaks',
      { schema: { tags, params: versionParams, response: { 404: errorBodySchema } } },
      async (request, reply) => {
        const key = await versions.peaksKey(userOf(request).id, request.params.versionId);
        return sendObject(reply, deps.storage, key, undefined, { contentType: 'application/json' });
      },
    );
    app.get(
      '/versions/:versionId/download',
      { schema: { tags, params: versionParams, response: { 404: errorBodySchema } } },
      async (request, reply) => {
        const download = await versions.download(userOf(request).id, request.params.versionId);
        if (deps.signedDownloads) {
          const url = await deps.storage.signedUrl(download.key, {
            expiresInSeconds: 60,
            downloadName: download.fileName,
            contentType: download.contentType,
          });
          return reply.redirect(url, 302);
        }
        return sendObject(reply, deps.storage, download.key, request.headers.range, {
          contentType: download.contentType,
          downloadName: download.fileName,
        });
      },
    );
  };
