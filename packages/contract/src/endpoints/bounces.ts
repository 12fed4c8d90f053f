import { z } from 'zod';
import { binaryBody, defineEndpoint } from '../endpoint';
import {
  completeBodySchema,
  completeResponseSchema,
  publishBodySchema,
  publishResponseSchema,
  recentBouncesResponseSchema,
  recentQuerySchema,
  uploadPutResponseSchema,
} from '../repos';
import { AUDIO_MEDIA_TYPES, signedIn } from './shared';

const tag = 'bounces';

export const listRecentBounces = defineEndpoint({
  name: 'listRecentBounces',
  method: 'GET',
  path: '/api/bounces/recent',
  summary: 'Your newest bounces across repositories',
  tag,
  auth: signedIn,
  demo: 'allowed',
  query: recentQuerySchema,
  responses: { 200: recentBouncesResponseSchema },
  errors: [400, 401],
});

export const publishBounce = defineEndpoint({
  name: 'publishBounce',
  method: 'POST',
  path: '/api/bounces/publish',
  summary: 'Start publishing a bounce: where to upload its file, with a single-use token',
  description:
    'Step 1 of 3: then PUT the file to upload_url with the x-upsert-token header, then POST /api/bounces/complete.',
  tag,
  auth: signedIn,
  demo: 'allowed',
  body: publishBodySchema,
  responses: { 201: publishResponseSchema },
  errors: [400, 401, 403, 404, 413],
});

export const uploadBounceFile = defineEndpoint({
  name: 'uploadBounceFile',
  method: 'PUT',
  path: '/api/bounces/uploads/:uploadId',
  summary: "Upload a publish's audio file (step 2 of 3)",
  description: 'The raw file as the body, authorised by the upload token from the publish step.',
  tag,
  auth: ['uploadToken'],
  demo: 'allowed',
  params: z.object({ uploadId: z.string().min(1).max(64) }),
  headers: {
    'x-upsert-token': { description: 'The upload_token of the publish step.', required: true },
  },
  // Any content type is taken: the server decides by the bytes, not by the header.
  body: binaryBody([...AUDIO_MEDIA_TYPES, '*/*'], 'The audio file (its content decides the type).'),
  responses: { 200: uploadPutResponseSchema },
  errors: [400, 403, 404, 409, 410, 413, 415, 503],
});

export const completeBounce = defineEndpoint({
  name: 'completeBounce',
  method: 'POST',
  path: '/api/bounces/complete',
  summary: 'Finish publishing: the bounce, attached to its commit (step 3 of 3)',
  tag,
  auth: signedIn,
  demo: 'allowed',
  body: completeBodySchema,
  responses: { 201: completeResponseSchema },
  errors: [400, 401, 403, 404, 409, 415, 503],
});
