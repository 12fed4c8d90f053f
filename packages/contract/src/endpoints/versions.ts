import { z } from 'zod';
import { binary, defineEndpoint, empty, multipart, redirect } from '../endpoint';
import {
  createVersionBodySchema,
  processingResponseSchema,
  qualitiesSchema,
  recentVersionSchema,
  uploadResponseSchema,
  versionSchema,
  versionWithProjectSchema,
  peaksFileSchema,
} from '../projects';
import { AUDIO_MEDIA_TYPES, notModified, signedIn, tokenQuery } from './shared';
import { AUDIO_QUALITIES } from '../audio-qualities';

const tag = 'versions';
const auth = signedIn;
const versionParams = z.object({ versionId: z.string().min(1).max(64) });
const quality = z.enum(AUDIO_QUALITIES);

/** The text fields of an upload. Without project_id and branch_id the upload starts a new track. */
const uploadFields = z.object({
  project_id: z.string().optional().describe('The project of the new version (with branch_id).'),
  branch_id: z.string().optional().describe('The branch of the new version (with project_id).'),
  commit_message: z
    .string()
    .optional()
    .describe('What changed; required for a new version of an existing branch.'),
  tags: z.string().optional().describe('A JSON list of words, e.g. ["mix","v2"].'),
  project_name: z.string().optional().describe("A new track's name (the file's name when absent)."),
  project_description: z.string().optional().describe("A new track's description."),
  is_private: z
    .string()
    .optional()
    .describe("'false' makes a new track public; anything else keeps it private."),
});

export const listRecentVersions = defineEndpoint({
  name: 'listRecentVersions',
  method: 'GET',
  path: '/api/versions/recent',
  summary: 'The newest versions across your projects and those shared with you',
  tag,
  auth,
  demo: 'allowed',
  query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
  responses: { 200: z.array(recentVersionSchema) },
  errors: [400, 401],
});

export const listBranchVersions = defineEndpoint({
  name: 'listBranchVersions',
  method: 'GET',
  path: '/api/versions/project/:projectId/branch/:branchId',
  summary: "A branch's versions, newest first",
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ projectId: z.string().max(64), branchId: z.string().max(64) }),
  responses: { 200: z.array(versionSchema) },
  errors: [400, 401, 404],
});

export const createVersionFromUrl = defineEndpoint({
  name: 'createVersionFromUrl',
  method: 'POST',
  path: '/api/versions/create',
  summary: 'Add a version whose audio is already at a URL',
  tag,
  auth,
  demo: 'allowed',
  body: createVersionBodySchema,
  responses: { 201: versionSchema },
  errors: [400, 401, 403, 404, 500],
});

export const uploadVersion = defineEndpoint({
  name: 'uploadVersion',
  method: 'POST',
  path: '/api/versions/upload',
  summary: 'Upload a new version of a branch, or a new track',
  description:
    "multipart/form-data with the audio file (MP3, WAV, AIFF, FLAC, AAC/M4A; at most 500 MB, 50 MB for a demo account). Processing continues after the answer: poll the version's processing status.",
  tag,
  auth,
  demo: 'allowed',
  body: multipart(
    uploadFields,
    { audio_file: 'The audio file (its content decides the type, not its name).' },
    ['audio_file'],
  ),
  responses: { 201: uploadResponseSchema },
  errors: [400, 401, 403, 404, 413, 415, 503],
});

export const getVersion = defineEndpoint({
  name: 'getVersion',
  method: 'GET',
  path: '/api/versions/:versionId',
  summary: 'One version with its project',
  tag,
  auth,
  demo: 'allowed',
  params: versionParams,
  responses: { 200: versionWithProjectSchema },
  errors: [400, 401, 404],
});

export const deleteVersion = defineEndpoint({
  name: 'deleteVersion',
  method: 'DELETE',
  path: '/api/versions/:versionId',
  summary: 'Delete a version with its links, comments and stored audio',
  tag,
  auth,
  demo: 'allowed',
  params: versionParams,
  responses: { 204: empty('Deleted.') },
  errors: [400, 401, 403, 404],
});

export const getVersionProcessing = defineEndpoint({
  name: 'getVersionProcessing',
  method: 'GET',
  path: '/api/versions/:versionId/processing',
  summary: "A version's processing progress",
  tag,
  auth,
  demo: 'allowed',
  params: versionParams,
  responses: { 200: processingResponseSchema },
  errors: [400, 401, 404],
});

export const getVersionQualities = defineEndpoint({
  name: 'getVersionQualities',
  method: 'GET',
  path: '/api/versions/:versionId/qualities',
  summary: 'Which qualities of a version can be played, with their sizes and formats',
  tag,
  auth,
  demo: 'allowed',
  params: versionParams,
  responses: { 200: qualitiesSchema },
  errors: [400, 401, 404],
});

export const streamVersion = defineEndpoint({
  name: 'streamVersion',
  method: 'GET',
  path: '/api/versions/:versionId/stream',
  summary: "Play a version's audio in one quality",
  description:
    "The original, its FLAC ('lossless', for lossless originals; the original where there is none), or the high or standard MP3 rendition. An audio element may pass the desktop bearer token as `?token=`.",
  tag,
  auth,
  demo: 'allowed',
  params: versionParams,
  query: z.object({ quality: quality.default('standard'), token: tokenQuery }),
  responses: {
    200: binary(AUDIO_MEDIA_TYPES, 'The audio.', { ranges: true }),
    304: notModified,
  },
  errors: [400, 401, 404, 503],
});

export const getVersionPeaks = defineEndpoint({
  name: 'getVersionPeaks',
  method: 'GET',
  path: '/api/versions/:versionId/peaks',
  summary: "A version's waveform peaks",
  tag,
  auth,
  demo: 'allowed',
  params: versionParams,
  responses: {
    200: peaksFileSchema.describe('The stored waveform peaks.'),
    304: notModified,
  },
  errors: [400, 401, 404],
});

export const downloadVersion = defineEndpoint({
  name: 'downloadVersion',
  method: 'GET',
  path: '/api/versions/:versionId/download',
  summary: "Download a version's original file",
  description:
    'With S3 storage the answer is a redirect to a short-lived signed URL; with local storage the file itself.',
  tag,
  auth,
  demo: 'allowed',
  params: versionParams,
  responses: {
    200: binary(AUDIO_MEDIA_TYPES, 'The original file.', { ranges: true, attachment: true }),
    302: redirect('To a signed download URL that works for 60 seconds.'),
    304: notModified,
  },
  errors: [400, 401, 404],
});
