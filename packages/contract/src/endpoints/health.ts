import { healthResponseSchema } from '../health';
import { defineEndpoint } from '../endpoint';
import { publicAccess } from './shared';

export const getHealth = defineEndpoint({
  name: 'getHealth',
  method: 'GET',
  path: '/api/health',
  summary: 'Whether the database, object storage and ffmpeg are usable',
  description:
    "Answers 503 with the same body when a component fails. Details (messages, versions) are shown to the instance's admins only, when their session or token is sent.",
  tag: 'health',
  auth: publicAccess,
  demo: 'allowed',
  responses: {
    200: healthResponseSchema.describe('Every component is usable.'),
    503: healthResponseSchema.describe('A component is failing; the same report says which.'),
  },
  errors: [500],
});
