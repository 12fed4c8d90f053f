import { z } from 'zod';
import { binary, defineEndpoint } from '../endpoint';
import { publicProjectSchema } from '../public';
import { AUDIO_MEDIA_TYPES, notModified, publicAccess } from './shared';

const tag = 'public';

export const getPublicProject = defineEndpoint({
  name: 'getPublicProject',
  method: 'GET',
  path: '/api/public/projects/:projectId',
  summary: "A Public project's read-only page: branches and versions, no downloads or comments",
  description:
    "404 for a private or missing project alike. `X-Robots-Tag: noindex` unless the owner ticked 'List in search engines'.",
  tag,
  auth: publicAccess,
  demo: 'allowed',
  params: z.object({ projectId: z.string().min(1).max(64) }),
  responses: { 200: publicProjectSchema },
  errors: [400, 404],
});

export const streamPublicVersion = defineEndpoint({
  name: 'streamPublicVersion',
  method: 'GET',
  path: '/api/public/versions/:versionId/audio',
  summary: "Play a Public project's version (standard quality only)",
  description:
    'Always the standard MP3 rendition, never the original: a `quality` parameter is ignored. 409 with Retry-After while the rendition is still being made; 404 for a private or missing project alike. `X-Robots-Tag: noindex` unless the project is listed.',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  params: z.object({ versionId: z.string().min(1).max(64) }),
  responses: {
    200: binary(AUDIO_MEDIA_TYPES, 'The standard-quality audio.', { ranges: true }),
    304: notModified,
  },
  errors: [400, 404, 409],
});
