import { z } from 'zod';
import { binary, defineEndpoint, multipart } from '../endpoint';
import { profileSchema, updateProfileBodySchema } from '../profiles';
import { IMAGE_MEDIA_TYPES, notModified, publicAccess, signedIn } from './shared';

const tag = 'profiles';

export const getProfile = defineEndpoint({
  name: 'getProfile',
  method: 'GET',
  path: '/api/profile',
  summary: 'Your profile: email, display name and avatar',
  tag,
  auth: signedIn,
  demo: 'allowed',
  responses: { 200: profileSchema },
  errors: [401, 404],
});

export const updateProfile = defineEndpoint({
  name: 'updateProfile',
  method: 'PATCH',
  path: '/api/profile',
  summary: 'Set or clear your display name',
  tag,
  auth: signedIn,
  demo: 'allowed',
  body: updateProfileBodySchema,
  responses: { 200: profileSchema },
  errors: [400, 401, 404],
});

export const uploadAvatar = defineEndpoint({
  name: 'uploadAvatar',
  method: 'POST',
  path: '/api/profile/avatar',
  summary: 'Upload your avatar (PNG, JPEG or WebP, at most 2 MB)',
  tag,
  auth: signedIn,
  demo: 'allowed',
  body: multipart(z.object({}), { avatar: 'A PNG, JPEG or WebP image, at most 2 MB.' }, ['avatar']),
  responses: { 200: profileSchema },
  errors: [400, 401, 404, 406, 413, 415],
});

export const getAvatar = defineEndpoint({
  name: 'getAvatar',
  method: 'GET',
  path: '/api/profile/avatar/:userId',
  summary: "A person's avatar image",
  tag,
  auth: publicAccess,
  demo: 'allowed',
  params: z.object({ userId: z.uuid() }),
  responses: {
    200: binary(IMAGE_MEDIA_TYPES, 'The avatar, typed by its content.', { ranges: true }),
    304: notModified,
  },
  errors: [400, 404],
});
