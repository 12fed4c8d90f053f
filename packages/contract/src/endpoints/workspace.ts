import { defineEndpoint } from '../endpoint';
import {
  debugReportSchema,
  roundTripResponseSchema,
  searchQuerySchema,
  searchResponseSchema,
  statsResponseSchema,
} from '../workspace';
import { signedIn } from './shared';
import { DEMO_MESSAGES } from '../demo';

const tag = 'workspace';

export const getStats = defineEndpoint({
  name: 'getStats',
  method: 'GET',
  path: '/api/stats',
  summary: "The dashboard's figures",
  tag,
  auth: signedIn,
  demo: 'allowed',
  responses: { 200: statsResponseSchema },
  errors: [401],
});

export const search = defineEndpoint({
  name: 'search',
  method: 'GET',
  path: '/api/search',
  summary: 'Search your projects, branches and versions (names, messages, tags)',
  tag,
  auth: signedIn,
  demo: 'allowed',
  query: searchQuerySchema,
  responses: { 200: searchResponseSchema },
  errors: [400, 401],
});

export const getDebugReport = defineEndpoint({
  name: 'getDebugReport',
  method: 'GET',
  path: '/api/debug',
  summary: "Server state for the debug page (the instance's admins only)",
  description: 'For anyone else the page does not exist (404); a demo account is refused (403).',
  tag,
  auth: signedIn,
  demo: { refused: DEMO_MESSAGES.debug },
  responses: { 200: debugReportSchema },
  errors: [401, 403, 404],
});

export const runDebugRoundTrip = defineEndpoint({
  name: 'runDebugRoundTrip',
  method: 'POST',
  path: '/api/debug/round-trip',
  summary: "Insert and delete a test project, timed (the instance's admins only)",
  tag,
  auth: signedIn,
  demo: { refused: DEMO_MESSAGES.debug },
  responses: { 200: roundTripResponseSchema },
  errors: [401, 403, 404],
});
