import { z } from 'zod';
import { binary, defineEndpoint, empty } from '../endpoint';
import {
  createLinkBodySchema,
  SHARE_MESSAGES,
  unlockLinkBodySchema,
  shareLinkSchema,
  sharedVersionSchema,
  updateLinkBodySchema,
} from '../sharing';
import { AUDIO_MEDIA_TYPES, notModified, shareLink, signedIn } from './shared';
import { DEMO_MESSAGES } from '../demo';
import { AUDIO_QUALITIES } from '../audio-qualities';

const tag = 'sharing';
const versionParams = z.object({
  versionId: z.string().min(1, SHARE_MESSAGES.versionIdRequired).max(64),
});
const linkParams = z.object({ linkId: z.string().max(64) });
const hashParams = z.object({ hash: z.string().min(1).max(64) });

export const createShareLink = defineEndpoint({
  name: 'createShareLink',
  method: 'POST',
  path: '/api/versions/:versionId/links',
  summary: 'Create a share link to a version',
  tag,
  auth: signedIn,
  demo: { refused: DEMO_MESSAGES.shareLinks },
  params: versionParams,
  body: createLinkBodySchema,
  responses: { 201: shareLinkSchema },
  errors: [400, 401, 403, 404],
});

export const listShareLinks = defineEndpoint({
  name: 'listShareLinks',
  method: 'GET',
  path: '/api/versions/:versionId/links',
  summary: "A version's share links",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: versionParams,
  responses: { 200: z.array(shareLinkSchema) },
  errors: [400, 401, 403, 404],
});

export const revokeShareLink = defineEndpoint({
  name: 'revokeShareLink',
  method: 'DELETE',
  path: '/api/links/:linkId',
  summary: 'Revoke a share link',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: linkParams,
  responses: { 204: empty('Revoked.') },
  errors: [400, 401, 403, 404],
});

export const updateShareLink = defineEndpoint({
  name: 'updateShareLink',
  method: 'PATCH',
  path: '/api/links/:linkId',
  summary: "Change whether a link's listeners see each other's comments",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: linkParams,
  body: updateLinkBodySchema,
  responses: { 200: shareLinkSchema },
  errors: [400, 401, 403, 404],
});

export const unlockShareLink = defineEndpoint({
  name: 'unlockShareLink',
  method: 'POST',
  path: '/api/links/hash/:hash/unlock',
  summary: "Unlock a password-protected share link (sets that link's cookie)",
  description:
    "401 'Wrong password'; more than 5 wrong tries per 10 minutes from one address on one link: 429.",
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: hashParams,
  body: unlockLinkBodySchema,
  responses: { 204: empty('Unlocked: an HttpOnly cookie for this link is set.') },
  errors: [400, 401, 404, 410, 429],
});

export const openShareLink = defineEndpoint({
  name: 'openShareLink',
  method: 'GET',
  path: '/api/links/hash/:hash',
  summary: 'What a share link opens: the version, its project and what the link allows',
  description:
    "A collection link's key answers 404 'Link not found' with details { kind: 'collection' }: open it with GET /api/collection-links/:hash.",
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: hashParams,
  responses: { 200: sharedVersionSchema },
  errors: [400, 401, 404, 410, 429],
});

export const streamShareLink = defineEndpoint({
  name: 'streamShareLink',
  method: 'GET',
  path: '/api/links/hash/:hash/audio',
  summary: "Play a shared version's audio",
  description:
    'Without download rights only the standard rendition streams. 409 with Retry-After while it is still being made.',
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: hashParams,
  query: z.object({ quality: z.enum(AUDIO_QUALITIES).default('standard') }),
  responses: {
    200: binary(AUDIO_MEDIA_TYPES, 'The audio.', { ranges: true }),
    304: notModified,
  },
  errors: [400, 401, 404, 409, 410, 429],
});

export const downloadShareLink = defineEndpoint({
  name: 'downloadShareLink',
  method: 'GET',
  path: '/api/links/hash/:hash/download',
  summary: "Download a shared version's original file (when the link allows downloads)",
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: hashParams,
  responses: {
    200: binary(AUDIO_MEDIA_TYPES, 'The original file.', { ranges: true, attachment: true }),
    304: notModified,
  },
  errors: [400, 401, 403, 404, 410, 429],
});
