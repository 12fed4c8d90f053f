import { z } from 'zod';
import {
  accessRequestBodySchema,
  accessRequestSentSchema,
  accessRequestsResponseSchema,
  collectionAccessRequestBodySchema,
  grantAccessBodySchema,
  grantAccessResponseSchema,
} from '../access-requests';
import { DEMO_MESSAGES } from '../demo';
import { defineEndpoint, empty } from '../endpoint';
import { signedIn } from './shared';

const tag = 'members';
const id = z.string().min(1).max(64);
const hashParams = z.object({ hash: z.string().min(1).max(128) });
const requestParams = z.object({ requestId: id });

export const requestAccessFromLink = defineEndpoint({
  name: 'requestAccessFromLink',
  method: 'POST',
  path: '/api/links/hash/:hash/access-requests',
  summary: "'Request access' to the project of a share link's version (signed in)",
  description:
    "The link opens as it does for listening (revoked, expired, password). The project's owner is notified ('Maya asked to join Night Drive'). 409 for a member, for an open request, or within 7 days of a declined one.",
  tag,
  auth: signedIn,
  demo: { refused: DEMO_MESSAGES.accessRequests },
  params: hashParams,
  body: accessRequestBodySchema,
  responses: { 201: accessRequestSentSchema },
  errors: [400, 401, 403, 404, 409, 410, 429],
});

export const requestAccessFromCollectionLink = defineEndpoint({
  name: 'requestAccessFromCollectionLink',
  method: 'POST',
  path: '/api/collection-links/:hash/access-requests',
  summary: "'Request access' to the project of the collection link's item being listened to",
  description:
    'A collection may span projects: the request is for the project of `item_id` (an item the link shows now). A bounce (a repository) takes no requests: 409.',
  tag,
  auth: signedIn,
  demo: { refused: DEMO_MESSAGES.accessRequests },
  params: hashParams,
  body: collectionAccessRequestBodySchema,
  responses: { 201: accessRequestSentSchema },
  errors: [400, 401, 403, 404, 409, 410, 429],
});

export const listAccessRequests = defineEndpoint({
  name: 'listAccessRequests',
  method: 'GET',
  path: '/api/projects/:projectId/access-requests',
  summary: "A project's open access requests, oldest first (owner only)",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: z.object({ projectId: id }),
  responses: { 200: accessRequestsResponseSchema },
  errors: [400, 401, 403, 404],
});

export const grantAccessRequest = defineEndpoint({
  name: 'grantAccessRequest',
  method: 'POST',
  path: '/api/access-requests/:requestId/grant',
  summary: 'Grant an access request: the person joins at the role given (Viewer by default)',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: requestParams,
  body: grantAccessBodySchema,
  responses: { 200: grantAccessResponseSchema },
  errors: [400, 401, 403, 404],
});

export const declineAccessRequest = defineEndpoint({
  name: 'declineAccessRequest',
  method: 'POST',
  path: '/api/access-requests/:requestId/decline',
  summary: 'Decline an access request (the person may ask again after 7 days)',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: requestParams,
  responses: { 204: empty('Declined.') },
  errors: [400, 401, 403, 404],
});
