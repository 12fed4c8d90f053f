import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import {
  createPatchBodySchema,
  createRepoBodySchema,
  patchesResponseSchema,
  patchSchema,
  repositoryDataResponseSchema,
  repositoryListResponseSchema,
} from '../repos';
import { signedIn } from './shared';

// The paths the desktop app reads and writes (its answers wrap everything in `data`).

const tag = 'audio-git';
const auth = signedIn;
const repoParams = z.object({ id: z.string().min(1).max(64) });

export const listRepositories = defineEndpoint({
  name: 'listRepositories',
  method: 'GET',
  path: '/api/audio-git/repositories',
  summary: 'Your repositories',
  tag,
  auth,
  demo: 'allowed',
  responses: { 200: repositoryListResponseSchema },
  errors: [401],
});

export const createRepository = defineEndpoint({
  name: 'createRepository',
  method: 'POST',
  path: '/api/audio-git/repositories',
  summary: 'Create a repository with its main branch',
  tag,
  auth,
  demo: 'allowed',
  body: createRepoBodySchema,
  responses: { 201: repositoryDataResponseSchema },
  errors: [400, 401, 409],
});

export const getRepository = defineEndpoint({
  name: 'getRepository',
  method: 'GET',
  path: '/api/audio-git/repositories/:id',
  summary: 'One repository',
  tag,
  auth,
  demo: 'allowed',
  params: repoParams,
  responses: { 200: repositoryDataResponseSchema },
  errors: [400, 401, 404],
});

export const listPatches = defineEndpoint({
  name: 'listPatches',
  method: 'GET',
  path: '/api/audio-git/repositories/:id/patches',
  summary: "A repository's patches (legacy commits), newest first, a page at a time",
  tag,
  auth,
  demo: 'allowed',
  params: repoParams,
  query: z.object({
    limit: z.coerce.number().int().min(1).max(1000).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  }),
  responses: { 200: patchesResponseSchema },
  errors: [400, 401, 404],
});

export const createPatch = defineEndpoint({
  name: 'createPatch',
  method: 'POST',
  path: '/api/audio-git/repositories/:id/patches',
  summary: 'Record a patch (a legacy commit) on a repository',
  tag,
  auth,
  demo: 'allowed',
  params: repoParams,
  body: createPatchBodySchema,
  responses: { 201: z.object({ data: patchSchema }) },
  errors: [400, 401, 403, 404, 409],
});
