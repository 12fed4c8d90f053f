import { z } from 'zod';
import { binary, defineEndpoint, empty } from '../endpoint';
import {
  blindListenerPageSchema,
  blindTestResultsSchema,
  blindTestSchema,
  blindTestsResponseSchema,
  blindTrialAnswerBodySchema,
  blindTrialStartBodySchema,
  blindVoteBodySchema,
  createBlindTestBodySchema,
  markBlindWinnerBodySchema,
  unlockBlindTestBodySchema,
} from '../blind-tests';
import { reviewStateSchema } from '../review';
import { DEMO_MESSAGES } from '../demo';
import { AUDIO_MEDIA_TYPES, shareLink, signedIn } from './shared';

const tag = 'blind-tests';
const auth = signedIn;
const id = z.string().min(1).max(64);
const hash = z.string().min(1).max(64);

export const createBlindTest = defineEndpoint({
  name: 'createBlindTest',
  method: 'POST',
  path: '/api/projects/:projectId/blind-tests',
  summary: 'Make a blind test of 2–4 versions of a project, with its link (one per recipient)',
  description:
    "Needs `share` on the project (Editor and up). The loudness-matched audio is made by a job: the test is 'preparing' until it is 'ready'.",
  tag,
  auth,
  demo: { refused: DEMO_MESSAGES.shareLinks },
  params: z.object({ projectId: id }),
  body: createBlindTestBodySchema,
  responses: { 201: blindTestSchema },
  errors: [400, 401, 403, 404, 409],
});

export const listBlindTests = defineEndpoint({
  name: 'listBlindTests',
  method: 'GET',
  path: '/api/projects/:projectId/blind-tests',
  summary: "A project's blind tests, newest first (revoked ones too)",
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ projectId: id }),
  responses: { 200: blindTestsResponseSchema },
  errors: [400, 401, 403, 404],
});

export const getBlindTestResults = defineEndpoint({
  name: 'getBlindTestResults',
  method: 'GET',
  path: '/api/blind-tests/:id/results',
  summary: 'Votes per version with names and notes; ABX scores with their p-values, in words',
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ id }),
  responses: { 200: blindTestResultsSchema },
  errors: [400, 401, 403, 404],
});

export const revokeBlindTest = defineEndpoint({
  name: 'revokeBlindTest',
  method: 'DELETE',
  path: '/api/blind-tests/:id',
  summary: 'Revoke a blind test: every link of it answers 404 from now on (results are kept)',
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ id }),
  responses: { 204: empty('Revoked.') },
  errors: [400, 401, 403, 404],
});

export const markBlindTestWinner = defineEndpoint({
  name: 'markBlindTestWinner',
  method: 'POST',
  path: '/api/blind-tests/:id/winner',
  summary: "'Mark the winner Approved': the version's review status, recorded as from the test",
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ id }),
  body: markBlindWinnerBodySchema,
  responses: { 200: reviewStateSchema },
  errors: [400, 401, 403, 404],
});

export const openBlindTest = defineEndpoint({
  name: 'openBlindTest',
  method: 'GET',
  path: '/api/blind/:hash',
  summary: 'A blind test as its listener sees it: letters and opaque option ids, nothing more',
  description:
    "Sets this listener's cookie on the first visit (the letters are kept for it). 401 'This link needs a password' until the link's unlock cookie is sent.",
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash }),
  responses: { 200: blindListenerPageSchema },
  errors: [400, 401, 404, 410, 429],
});

export const unlockBlindTest = defineEndpoint({
  name: 'unlockBlindTest',
  method: 'POST',
  path: '/api/blind/:hash/unlock',
  summary: "Unlock a password-protected blind test (sets that link's cookie)",
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash }),
  body: unlockBlindTestBodySchema,
  responses: { 204: empty('Unlocked: an HttpOnly cookie for this link is set.') },
  errors: [400, 401, 404, 410, 429],
});

export const streamBlindOption = defineEndpoint({
  name: 'streamBlindOption',
  method: 'GET',
  path: '/api/blind/:hash/audio/:optionId',
  summary: "One option's loudness-matched audio (the same size and length for every option)",
  description: '409 with Retry-After while the test is being prepared.',
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash, optionId: id }),
  responses: { 200: binary(AUDIO_MEDIA_TYPES, 'The audio.', { ranges: true }) },
  errors: [400, 401, 404, 409, 410, 429],
});

export const voteBlindTest = defineEndpoint({
  name: 'voteBlindTest',
  method: 'POST',
  path: '/api/blind/:hash/vote',
  summary: "The listener's preference (voting again replaces it)",
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash }),
  body: blindVoteBodySchema,
  responses: { 200: blindListenerPageSchema },
  errors: [400, 401, 404, 409, 410, 429],
});

export const startBlindTrial = defineEndpoint({
  name: 'startBlindTrial',
  method: 'POST',
  path: '/api/blind/:hash/trials',
  summary: 'Start the next ABX trial: the server draws X',
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash }),
  body: blindTrialStartBodySchema,
  responses: { 200: blindListenerPageSchema },
  errors: [400, 401, 404, 409, 410, 429],
});

export const answerBlindTrial = defineEndpoint({
  name: 'answerBlindTrial',
  method: 'POST',
  path: '/api/blind/:hash/trials/answer',
  summary: 'Answer the current ABX trial (is X A or B?), checked on the server',
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash }),
  body: blindTrialAnswerBodySchema,
  responses: { 200: blindListenerPageSchema },
  errors: [400, 401, 404, 409, 410, 429],
});
