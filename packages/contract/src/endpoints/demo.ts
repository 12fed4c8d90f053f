import { sessionResponseSchema } from '../auth';
import { defineEndpoint } from '../endpoint';
import { publicAccess } from './shared';

export const startDemo = defineEndpoint({
  name: 'startDemo',
  method: 'POST',
  path: '/api/auth/demo',
  summary: 'Create a demo account of your own (deleted after 24 hours) and sign in',
  description: 'Sets the session cookie. 404 when the demo is turned off on this server.',
  tag: 'demo',
  auth: publicAccess,
  demo: 'allowed',
  responses: { 200: sessionResponseSchema },
  errors: [404, 429],
});
