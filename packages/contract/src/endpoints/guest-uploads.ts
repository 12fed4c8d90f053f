import { z } from 'zod';
import { binary, defineEndpoint, empty } from '../endpoint';
import { AUDIO_QUALITIES } from '../audio-qualities';
import { DEMO_MESSAGES } from '../demo';
import { unlockLinkBodySchema } from '../sharing';
import {
  acceptedGuestFileSchema,
  acceptGuestFileBodySchema,
  createRepoUploadLinkBodySchema,
  createUploadLinkBodySchema,
  guestFilesQuerySchema,
  repoGuestFilesQuerySchema,
  guestFilesResponseSchema,
  guestUploadPageSchema,
  uploadLinkSchema,
  uploadLinksResponseSchema,
} from '../upload-links';
import { AUDIO_MEDIA_TYPES, notModified, shareLink, signedIn } from './shared';

// File requests: 'Upload link's made by the team, the guest's page, and the files guests sent,
// waiting to be added as a version or declined. The guest's bytes go through the resumable
// (tus) endpoint `/api/guest-uploads`, which, like `/api/uploads`, is not an operation here.

const tag = 'guest-uploads';
const auth = signedIn;
const id = z.string().min(1).max(64);
const hash = z.string().min(1).max(64);

export const createUploadLink = defineEndpoint({
  name: 'createUploadLink',
  method: 'POST',
  path: '/api/projects/:projectId/upload-links',
  summary: "Make an 'Upload link' for a branch: guests send files through it without an account",
  description:
    'Needs `upload` on the project (Editor and up). Expires in 7 days unless `expires_at` says otherwise (at most 90); takes 10 files and 2 GB unless told otherwise.',
  tag,
  auth,
  demo: { refused: DEMO_MESSAGES.shareLinks },
  params: z.object({ projectId: id }),
  body: createUploadLinkBodySchema,
  responses: { 201: uploadLinkSchema },
  errors: [400, 401, 403, 404],
});

export const listUploadLinks = defineEndpoint({
  name: 'listUploadLinks',
  method: 'GET',
  path: '/api/projects/:projectId/upload-links',
  summary: "A project's upload links, newest first (revoked and expired ones too)",
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ projectId: id }),
  responses: { 200: uploadLinksResponseSchema },
  errors: [400, 401, 403, 404],
});

export const createRepoUploadLink = defineEndpoint({
  name: 'createRepoUploadLink',
  method: 'POST',
  path: '/api/repos/:id/upload-links',
  summary:
    "Make an 'Upload link' for a repository's branch: guests send files that may become bounces",
  description:
    "Needs `publish` on the repository (Editor and up); the branch by name. The same limits and expiry as a project's link.",
  tag,
  auth,
  demo: { refused: DEMO_MESSAGES.shareLinks },
  params: z.object({ id }),
  body: createRepoUploadLinkBodySchema,
  responses: { 201: uploadLinkSchema },
  errors: [400, 401, 403, 404],
});

export const listRepoUploadLinks = defineEndpoint({
  name: 'listRepoUploadLinks',
  method: 'GET',
  path: '/api/repos/:id/upload-links',
  summary: "A repository's upload links, newest first (revoked and expired ones too)",
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ id }),
  responses: { 200: uploadLinksResponseSchema },
  errors: [400, 401, 403, 404],
});

export const listRepoGuestFiles = defineEndpoint({
  name: 'listRepoGuestFiles',
  method: 'GET',
  path: '/api/repos/:id/guest-files',
  summary:
    "Files guests sent through the repository's upload links, waiting to be added as bounces or declined",
  description:
    "Members who may listen see them; the guest's address only whoever may publish. With `branch`, that branch's only. Not bounces: no list of bounces shows them.",
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ id }),
  query: repoGuestFilesQuerySchema,
  responses: { 200: guestFilesResponseSchema },
  errors: [400, 401, 403, 404],
});

export const revokeUploadLink = defineEndpoint({
  name: 'revokeUploadLink',
  method: 'DELETE',
  path: '/api/upload-links/:id',
  summary: 'Revoke an upload link: its page answers 404 and unfinished uploads through it stop',
  description: "Needs `upload` on the link's project, or `publish` on its repository.",
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ id }),
  responses: { 204: empty('Revoked.') },
  errors: [400, 401, 403, 404],
});

export const listGuestFiles = defineEndpoint({
  name: 'listGuestFiles',
  method: 'GET',
  path: '/api/projects/:projectId/guest-files',
  summary: "Files guests sent through the project's upload links, waiting to be added or declined",
  description:
    "Members who may listen see them; the guest's address only whoever may accept them. With `branch_id`, that branch's only, and the number its next version gets.",
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ projectId: id }),
  query: guestFilesQuerySchema,
  responses: { 200: guestFilesResponseSchema },
  errors: [400, 401, 403, 404],
});

export const streamGuestFile = defineEndpoint({
  name: 'streamGuestFile',
  method: 'GET',
  path: '/api/guest-files/:id/stream',
  summary: "Play a guest's file (the team only)",
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ id }),
  query: z.object({ quality: z.enum(AUDIO_QUALITIES).default('standard') }),
  responses: {
    200: binary(AUDIO_MEDIA_TYPES, 'The audio.', { ranges: true }),
    304: notModified,
  },
  errors: [400, 401, 403, 404],
});

export const acceptGuestFile = defineEndpoint({
  name: 'acceptGuestFile',
  method: 'POST',
  path: '/api/guest-files/:id/accept',
  summary:
    "'Add as Version N' (a project's file: its branch's next version, with a message) or 'Add as bounce' (a repository's file, with a title)",
  description:
    'Needs `upload` on the project or `publish` on the repository (Editor and up); 409 while it is being processed or when processing failed. The guest, if they left an address, is emailed once.',
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ id }),
  body: acceptGuestFileBodySchema,
  responses: { 201: acceptedGuestFileSchema },
  errors: [400, 401, 403, 404, 409],
});

export const declineGuestFile = defineEndpoint({
  name: 'declineGuestFile',
  method: 'DELETE',
  path: '/api/guest-files/:id',
  summary: "Decline a guest's file: deleted with its audio (the original unless another uses it)",
  tag,
  auth,
  demo: 'allowed',
  params: z.object({ id }),
  responses: { 204: empty('Declined and deleted.') },
  errors: [400, 401, 403, 404],
});

export const openUploadLink = defineEndpoint({
  name: 'openUploadLink',
  method: 'GET',
  path: '/api/upload/:hash',
  summary: "An upload link as its guest sees it: the link's name, message and room, nothing else",
  description: "401 'This link needs a password' until the link's unlock cookie is sent.",
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash }),
  responses: { 200: guestUploadPageSchema },
  errors: [400, 401, 404, 410],
});

export const unlockUploadLink = defineEndpoint({
  name: 'unlockUploadLink',
  method: 'POST',
  path: '/api/upload/:hash/unlock',
  summary: "Unlock a password-protected upload link (sets that link's cookie)",
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash }),
  body: unlockLinkBodySchema,
  responses: { 204: empty('Unlocked: an HttpOnly cookie for this link is set.') },
  errors: [400, 401, 404, 410, 429],
});
