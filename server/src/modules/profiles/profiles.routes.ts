import multipart from '@fastify/multipart';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { HttpError } from '../../http/errors';
import { sendObject } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import { guardUpload } from '../../storage/scratch-file';
import { sniffImage } from '../../media/image-type';
import { AVATAR_MAX_BYTES, type ProfilesService } from './profiles.service';

const profileSchema = z.object({
  email: z.string(),
  displayName: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  404: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
};
const tags = ['profile'];

export const profileRoutes =
  (deps: {
    service: ProfilesService;
    storage: ObjectStore;
    requireUser: preHandlerAsyncHookHandler;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    // One byte over the limit reaches the store, which then refuses the file as too large.
    await app.register(multipart, {
      limits: { files: 1, fields: 0, fileSize: AVATAR_MAX_BYTES + 1 },
    });

    app.get(
      '/profile',
      {
        schema: { tags, response: { 200: profileSchema, ...errors } },
        preHandler: deps.requireUser,
      },
      (request) => deps.service.get(userOf(request).id),
    );

    app.patch(
      '/profile',
      {
        schema: {
          tags,
          body: z.object({
            displayName: z
              .string()
              .trim()
              .max(80, 'Display name must be 80 characters or fewer')
              .nullable(),
          }),
          response: { 200: profileSchema, ...errors },
        },
        preHandler: deps.requireUser,
      },
      (request) =>
        deps.service.setDisplayName(userOf(request).id, request.body.displayName || null),
    );

    app.post(
      '/profile/avatar',
      {
        schema: { tags, response: { 200: profileSchema, ...errors } },
        preHandler: deps.requireUser,
      },
      async (request) => {
        const file = await request.file();
        if (!file || file.fieldname !== 'avatar')
          throw new HttpError(400, 'Choose an image to upload as your avatar.');
        // Fails (400) instead of hanging when the body ends inside the image.
        return deps.service.setAvatar(userOf(request).id, guardUpload(file.file));
      },
    );

    app.get(
      '/profile/avatar/:userId',
      {
        schema: {
          tags,
          params: z.object({ userId: z.uuid() }),
          response: { 404: errorBodySchema },
        },
      },
      async (request, reply) => {
        const key = await deps.service.avatarKey(request.params.userId);
        const head = await deps.storage.get(key, { start: 0, end: 15 });
        const chunks: Buffer[] = [];
        for await (const chunk of head.body) chunks.push(chunk as Buffer);
        const type = sniffImage(Buffer.concat(chunks));
        return sendObject(reply, deps.storage, key, request.headers.range, {
          contentType: type?.mime ?? 'application/octet-stream',
          cacheControl: 'private, max-age=86400',
        });
      },
    );
  };
