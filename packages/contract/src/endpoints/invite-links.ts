import { z } from 'zod';
import { DEMO_MESSAGES } from '../demo';
import { defineEndpoint, empty } from '../endpoint';
import {
  createInviteLinkBodySchema,
  inviteLinkKeyBodySchema,
  inviteLinkSchema,
  inviteLinkViewSchema,
  inviteLinksResponseSchema,
  joinInviteLinkResponseSchema,
} from '../invite-links';
import { publicAccess, signedIn } from './shared';

const tag = 'members';
const id = z.string().min(1).max(64);

export const listInviteLinks = defineEndpoint({
  name: 'listInviteLinks',
  method: 'GET',
  path: '/api/projects/:projectId/invite-links',
  summary: "A project's live invite links with their uses left (owner only)",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: z.object({ projectId: id }),
  responses: { 200: inviteLinksResponseSchema },
  errors: [400, 401, 403, 404],
});

export const createInviteLink = defineEndpoint({
  name: 'createInviteLink',
  method: 'POST',
  path: '/api/projects/:projectId/invite-links',
  summary: 'Make an invite link to paste in a group chat: a role, 1–50 uses, up to 30 days',
  description:
    'Whoever opens the link signed in (with a proven address, as for invitations) joins at its role until its uses run out, it expires or it is revoked. 429 past 20 live links per project.',
  tag,
  auth: signedIn,
  demo: { refused: DEMO_MESSAGES.invitations },
  params: z.object({ projectId: id }),
  body: createInviteLinkBodySchema,
  responses: { 201: inviteLinkSchema },
  errors: [400, 401, 403, 404, 429],
});

export const revokeInviteLink = defineEndpoint({
  name: 'revokeInviteLink',
  method: 'DELETE',
  path: '/api/invite-links/:inviteLinkId',
  summary: "'Revoke' an invite link: it stops working at once (owner only)",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: z.object({ inviteLinkId: id }),
  responses: { 204: empty('Revoked.') },
  errors: [400, 401, 403, 404],
});

export const viewInviteLink = defineEndpoint({
  name: 'viewInviteLink',
  method: 'POST',
  path: '/api/invite-links/view',
  summary: 'What an invite link offers (the key travels in the body, never in an API URL)',
  description:
    '410 "This invite link is no longer valid." when expired, used up, revoked or unknown.',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  body: inviteLinkKeyBodySchema,
  responses: { 200: inviteLinkViewSchema },
  errors: [400, 410, 429],
});

export const joinInviteLink = defineEndpoint({
  name: 'joinInviteLink',
  method: 'POST',
  path: '/api/invite-links/join',
  summary: "Join a project at an invite link's role (takes one of its uses)",
  description:
    'A member already in keeps their role and takes no use. 410 when the link is no longer valid (expired, used up, revoked). An account that has not proven its address gets 403 with `details.code` "email_unverified" and a 6-digit code by email, as for invitations.',
  tag,
  auth: signedIn,
  demo: 'allowed',
  body: inviteLinkKeyBodySchema,
  responses: { 200: joinInviteLinkResponseSchema },
  errors: [400, 401, 403, 410, 429],
});
