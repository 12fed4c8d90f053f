import { z } from 'zod';
import { binary, defineEndpoint } from '../endpoint';
import { AUDIO_MEDIA_TYPES, IMAGE_MEDIA_TYPES, notModified, publicAccess } from './shared';

export const getStoredObject = defineEndpoint({
  name: 'getStoredObject',
  method: 'GET',
  path: '/api/storage/*',
  summary: 'A signed URL of the local object store (S3 serves its own)',
  description: 'The signature in the query is the credential; the URLs come from other operations.',
  tag: 'storage',
  auth: publicAccess,
  demo: 'allowed',
  // The wildcard is the rest of the path; the document names it `key` (see openApiPath).
  params: z.object({
    '*': z.string().describe('The object key: the rest of the path, slashes included.'),
  }),
  query: z.object({
    expires: z.string(),
    sig: z.string(),
    name: z.string().optional(),
  }),
  responses: {
    200: binary(
      [...new Set([...AUDIO_MEDIA_TYPES, 'audio/ogg', 'application/json', ...IMAGE_MEDIA_TYPES])],
      'The stored object, typed by its key.',
      {
        ranges: true,
        attachment: true,
      },
    ),
    304: notModified,
  },
  errors: [400, 403, 404],
});
