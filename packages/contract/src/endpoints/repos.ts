import { z } from 'zod';
import { binary, defineEndpoint, empty, multipart } from '../endpoint';
import {
  bounceSchema,
  bouncesResponseSchema,
  branchesResponseSchema,
  commitsResponseSchema,
  coverResponseSchema,
  createCommitBodySchema,
  createRepoBodySchema,
  createRepoBranchBodySchema,
  repoBranchSchema,
  repoResponseSchema,
  timelineCommitSchema,
} from '../repos';
import { AUDIO_MEDIA_TYPES, IMAGE_MEDIA_TYPES, notModified, signedIn, tokenQuery } from './shared';
import { AUDIO_QUALITIES } from '../audio-qualities';

const tag = 'repos';
const auth = signedIn;
const id = z.string().min(1).max(64);
const repoParams = z.object({ id });
const bounceParams = z.object({ id, bounceId: id });
const branchQuery = z.string().min(1).max(100).optional();

export const createRepo = defineEndpoint({
  name: 'createRepo',
  method: 'POST',
  path: '/api/repos',
  summary: 'Create a repository with its main branch',
  tag,
  auth,
  demo: 'allowed',
  body: createRepoBodySchema,
  responses: { 201: repoResponseSchema },
  errors: [400, 401, 409],
});

export const getRepo = defineEndpoint({
  name: 'getRepo',
  method: 'GET',
  path: '/api/repos/:id',
  summary: 'One repository',
  tag,
  auth,
  demo: 'allowed',
  params: repoParams,
  responses: { 200: repoResponseSchema },
  errors: [400, 401, 404],
});

export const renameRepo = defineEndpoint({
  name: 'renameRepo',
  method: 'PATCH',
  path: '/api/repos/:id',
  summary: 'Rename a repository',
  tag,
  auth,
  demo: 'allowed',
  params: repoParams,
  body: createRepoBodySchema,
  responses: { 200: repoResponseSchema },
  errors: [400, 401, 403, 404, 409],
});

export const deleteRepo = defineEndpoint({
  name: 'deleteRepo',
  method: 'DELETE',
  path: '/api/repos/:id',
  summary: 'Delete a repository with its branches, commits, bounces and stored audio',
  tag,
  auth,
  demo: 'allowed',
  params: repoParams,
  responses: { 204: empty('Deleted.') },
  errors: [400, 401, 403, 404],
});

export const uploadRepoCover = defineEndpoint({
  name: 'uploadRepoCover',
  method: 'POST',
  path: '/api/repos/:id/cover',
  summary: "Set a repository's cover image (PNG, JPEG or WebP, at most 5 MB)",
  tag,
  auth,
  demo: 'allowed',
  params: repoParams,
  body: multipart(z.object({}), { cover_image: 'A PNG, JPEG or WebP image, at most 5 MB.' }, [
    'cover_image',
  ]),
  responses: { 200: coverResponseSchema },
  errors: [400, 401, 403, 404, 406, 413, 415],
});

export const getRepoCover = defineEndpoint({
  name: 'getRepoCover',
  method: 'GET',
  path: '/api/repos/:id/cover',
  summary: "A repository's cover image",
  tag,
  auth,
  demo: 'allowed',
  params: repoParams,
  responses: {
    200: binary(IMAGE_MEDIA_TYPES, 'The cover, typed by its content.', { ranges: true }),
    304: notModified,
  },
  errors: [400, 401, 404],
});

export const listRepoBranches = defineEndpoint({
  name: 'listRepoBranches',
  method: 'GET',
  path: '/api/repos/:id/branches',
  summary: "A repository's branches with their heads",
  tag,
  auth,
  demo: 'allowed',
  params: repoParams,
  responses: { 200: branchesResponseSchema },
  errors: [400, 401, 404],
});

export const createRepoBranch = defineEndpoint({
  name: 'createRepoBranch',
  method: 'POST',
  path: '/api/repos/:id/branches',
  summary: 'Create a branch from another branch’s head',
  tag,
  auth,
  demo: 'allowed',
  params: repoParams,
  body: createRepoBranchBodySchema,
  responses: { 201: z.object({ branch: repoBranchSchema }) },
  errors: [400, 401, 403, 404, 409],
});

export const listRepoCommits = defineEndpoint({
  name: 'listRepoCommits',
  method: 'GET',
  path: '/api/repos/:id/commits',
  summary: "A branch's commits, newest first (the default branch when none is named)",
  tag,
  auth,
  demo: 'allowed',
  params: repoParams,
  query: z.object({
    branch: branchQuery,
    limit: z.coerce.number().int().min(1).max(1000).default(100),
  }),
  responses: { 200: commitsResponseSchema },
  errors: [400, 401, 404],
});

export const createRepoCommit = defineEndpoint({
  name: 'createRepoCommit',
  method: 'POST',
  path: '/api/repos/:id/commits',
  summary: "Add a commit to a branch (moves the branch's head)",
  tag,
  auth,
  demo: 'allowed',
  params: repoParams,
  body: createCommitBodySchema,
  responses: { 201: z.object({ commit: timelineCommitSchema }) },
  errors: [400, 401, 403, 404, 409],
});

export const listCommitBounces = defineEndpoint({
  name: 'listCommitBounces',
  method: 'GET',
  path: '/api/repos/:id/commits/:sha/bounces',
  summary: 'The bounces attached to one commit',
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ id, sha: z.string().min(1).max(64) }),
  responses: { 200: bouncesResponseSchema },
  errors: [400, 401, 404],
});

export const listRepoBounces = defineEndpoint({
  name: 'listRepoBounces',
  method: 'GET',
  path: '/api/repos/:id/bounces',
  summary: "A repository's bounces, or one branch's",
  tag,
  auth,
  demo: 'allowed',
  params: repoParams,
  query: z.object({ branch: branchQuery }),
  responses: { 200: bouncesResponseSchema },
  errors: [400, 401, 404],
});

export const getBounce = defineEndpoint({
  name: 'getBounce',
  method: 'GET',
  path: '/api/repos/:id/bounces/:bounceId',
  summary: 'One bounce',
  tag,
  auth,
  demo: 'allowed',
  params: bounceParams,
  responses: { 200: z.object({ bounce: bounceSchema }) },
  errors: [400, 401, 404],
});

export const deleteBounce = defineEndpoint({
  name: 'deleteBounce',
  method: 'DELETE',
  path: '/api/repos/:id/bounces/:bounceId',
  summary: 'Delete a bounce with its stored audio',
  tag,
  auth,
  demo: 'allowed',
  params: bounceParams,
  responses: { 204: empty('Deleted.') },
  errors: [400, 401, 403, 404],
});

export const streamBounce = defineEndpoint({
  name: 'streamBounce',
  method: 'GET',
  path: '/api/repos/:id/bounces/:bounceId/stream',
  summary: "Play a bounce's audio in one quality",
  description:
    'The original (the default), or the high or standard MP3 rendition. An audio element may pass the desktop bearer token as `?token=`.',
  tag,
  auth,
  demo: 'allowed',
  params: bounceParams,
  query: z.object({
    quality: z.enum(AUDIO_QUALITIES).default('original'),
    token: tokenQuery,
  }),
  responses: {
    200: binary(AUDIO_MEDIA_TYPES, 'The audio.', { ranges: true }),
    304: notModified,
  },
  errors: [400, 401, 404],
});
