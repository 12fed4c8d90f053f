import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@takes/contract';
import { userOf } from '../../auth/guard';
import { HttpError } from '../../http/errors';
import { route } from '../../http/route';
import { sendObject } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import { guardUpload } from '../../storage/scratch-file';
import { sniffImage } from '../../media/image-type';
import { AVATAR_MAX_BYTES, type ProfilesService } from './profiles.service';

const api = endpoints.profiles;

/** The signed-in user's profile and avatar; anyone may fetch an avatar image. */
export const profileRoutes =
  (deps: { service: ProfilesService; storage: ObjectStore }): FastifyPluginAsync =>
  async (app) => {
    // One byte over the limit reaches the store, which then refuses the file as too large.
    await app.register(multipart, {
      limits: { files: 1, fields: 0, fileSize: AVATAR_MAX_BYTES + 1 },
    });

    route(app, api.getProfile, {}, (request) => deps.service.get(userOf(request).id));

    route(app, api.updateProfile, {}, (request) =>
      deps.service.setDisplayName(userOf(request).id, request.body.display_name || null),
    );

    route(app, api.uploadAvatar, {}, async (request) => {
      const file = await request.file();
      if (!file || file.fieldname !== 'avatar')
        throw new HttpError(400, 'Choose an image to upload as your avatar.');
      // Fails (400) instead of hanging when the body ends inside the image.
      return deps.service.setAvatar(userOf(request).id, guardUpload(file.file));
    });

    route(app, api.getAvatar, {}, async (request, reply) => {
      const key = await deps.service.avatarKey(request.params.userId);
      const head = await deps.storage.get(key, { start: 0, end: 15 });
      const chunks: Buffer[] = [];
      for await (const chunk of head.body) chunks.push(chunk as Buffer);
      const type = sniffImage(Buffer.concat(chunks));
      return sendObject(reply, deps.storage, key, request.headers.range, {
        contentType: type?.mime ?? 'application/octet-stream',
        cacheControl: 'private, max-age=86400',
      });
    });
  };
