import { z } from 'zod';
import {
  alignmentQuerySchema,
  changesQuerySchema,
  versionAlignmentSchema,
  versionChangesSchema,
} from '../alignment';
import { defineEndpoint } from '../endpoint';
import { compareResponseSchema } from '../projects';
import {
  compareQuerySchema,
  reviewStateSchema,
  setReviewBodySchema,
  versionReviewSchema,
} from '../review';
import { SHARE_MESSAGES, visitorReviewBodySchema } from '../sharing';
import { shareLink, signedIn } from './shared';

const tag = 'review';
const versionParams = z.object({
  versionId: z.string().min(1, SHARE_MESSAGES.versionIdRequired).max(64),
});
const hashParams = z.object({ hash: z.string().min(1).max(64) });
const projectParams = z.object({ projectId: z.string().min(1).max(64) });

export const getVersionReview = defineEndpoint({
  name: 'getVersionReview',
  method: 'GET',
  path: '/api/versions/:versionId/review',
  summary: "A version's review status with every change (who and when), newest first",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: versionParams,
  responses: { 200: versionReviewSchema },
  errors: [400, 401, 404],
});

export const setVersionReview = defineEndpoint({
  name: 'setVersionReview',
  method: 'PUT',
  path: '/api/versions/:versionId/review',
  summary:
    "Set a version's review status: 'In review', 'Changes requested' or 'Approved' (Editor and up)",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: versionParams,
  body: setReviewBodySchema,
  responses: { 200: versionReviewSchema },
  errors: [400, 401, 403, 404],
});

export const setShareLinkReview = defineEndpoint({
  name: 'setShareLinkReview',
  method: 'PUT',
  path: '/api/links/hash/:hash/review',
  summary:
    "Set the shared version's review status as the link's listener (when the link allows approval)",
  description:
    "A signed-in listener is recorded under their account (the session cookie is read when sent); anyone else gives a visitor_name. 403 when the link's 'Allow approval' is off.",
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: hashParams,
  body: visitorReviewBodySchema,
  responses: { 200: reviewStateSchema },
  errors: [400, 401, 403, 404, 410, 429],
});

export const compareVersions = defineEndpoint({
  name: 'compareVersions',
  method: 'GET',
  path: '/api/projects/:projectId/compare',
  summary: 'Two versions of one project (any branches) for an A/B compare',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: projectParams,
  query: compareQuerySchema,
  responses: { 200: compareResponseSchema },
  errors: [400, 401, 404],
});

export const getVersionAlignment = defineEndpoint({
  name: 'getVersionAlignment',
  method: 'GET',
  path: '/api/versions/:versionId/alignment',
  summary:
    'How a version lines up in time with another of its project (segments map its times onto the other); asking starts the alignment when none is there',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: versionParams,
  query: alignmentQuerySchema,
  responses: { 200: versionAlignmentSchema },
  errors: [400, 401, 404],
});

export const getVersionChanges = defineEndpoint({
  name: 'getVersionChanges',
  method: 'GET',
  path: '/api/versions/:versionId/changes',
  summary:
    'What changed against another version of the project, on this version’s timeline: regions where the aligned, loudness-matched audio differs, and inserted material',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: versionParams,
  query: changesQuerySchema,
  responses: { 200: versionChangesSchema },
  errors: [400, 401, 404],
});
