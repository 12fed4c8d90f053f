import { z } from 'zod';
import { defineEndpoint, empty } from '../endpoint';
import {
  acceptInvitationResponseSchema,
  invitationSchema,
  invitationTokenBodySchema,
  invitationViewSchema,
  inviteBodySchema,
  memberRoleBodySchema,
  memberSchema,
  membersResponseSchema,
  removeMemberQuerySchema,
  transferBodySchema,
} from '../members';
import { projectSchema } from '../projects';
import { repositorySchema } from '../repos';
import { publicAccess, signedIn } from './shared';
import { DEMO_MESSAGES } from '../demo';

const tag = 'members';
const id = z.string().min(1).max(64);
const projectParams = z.object({ projectId: id });
const projectMemberParams = z.object({ projectId: id, userId: id });
const repoParams = z.object({ id });
const repoMemberParams = z.object({ id, userId: id });
const invitationParams = z.object({ invitationId: id });

// Projects ------------------------------------------------------------------------------------

export const listProjectMembers = defineEndpoint({
  name: 'listProjectMembers',
  method: 'GET',
  path: '/api/projects/:projectId/members',
  summary: "A project's members, the caller's role and (for the owner) pending invitations",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: projectParams,
  responses: { 200: membersResponseSchema },
  errors: [400, 401, 404],
});

export const inviteToProject = defineEndpoint({
  name: 'inviteToProject',
  method: 'POST',
  path: '/api/projects/:projectId/invitations',
  summary: 'Invite someone into a project by email with a role',
  description:
    'Emails a single-use link valid for 7 days. 409 when the address is already a member or already invited; 429 over 20 invitations an hour.',
  tag,
  auth: signedIn,
  demo: { refused: DEMO_MESSAGES.invitations },
  params: projectParams,
  body: inviteBodySchema,
  responses: { 201: invitationSchema },
  errors: [400, 401, 403, 404, 409, 429],
});

export const changeProjectMemberRole = defineEndpoint({
  name: 'changeProjectMemberRole',
  method: 'PATCH',
  path: '/api/projects/:projectId/members/:userId',
  summary: "Change a member's role (owner only)",
  description: '409 for the owner (ownership is only transferred).',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: projectMemberParams,
  body: memberRoleBodySchema,
  responses: { 200: memberSchema },
  errors: [400, 401, 403, 404, 409],
});

export const removeProjectMember = defineEndpoint({
  name: 'removeProjectMember',
  method: 'DELETE',
  path: '/api/projects/:projectId/members/:userId',
  summary: 'Remove a member (owner only); takes effect on their next request',
  description:
    "Also revokes the person's pending invitations to the project, and (unless `revoke_links=false`) every share link they made in it that still opens ('Also revoke the links they made', on by default): the member list tells the owner how many (`links_made`). The removal, the revocations and their activity happen in one transaction. 409 for the owner.",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: projectMemberParams,
  query: removeMemberQuerySchema,
  responses: { 204: empty() },
  errors: [400, 401, 403, 404, 409],
});

export const leaveProject = defineEndpoint({
  name: 'leaveProject',
  method: 'POST',
  path: '/api/projects/:projectId/leave',
  summary: 'Leave a project (the owner must transfer ownership first)',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: projectParams,
  responses: { 204: empty() },
  errors: [400, 401, 403, 404, 409],
});

export const transferProject = defineEndpoint({
  name: 'transferProject',
  method: 'POST',
  path: '/api/projects/:projectId/transfer',
  summary: 'Hand ownership to an editor; the old owner becomes an editor',
  description: '409 unless the new owner is currently an editor of the project.',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: projectParams,
  body: transferBodySchema,
  responses: { 200: projectSchema },
  errors: [400, 401, 403, 404, 409],
});

// Repositories --------------------------------------------------------------------------------

export const listRepoMembers = defineEndpoint({
  name: 'listRepoMembers',
  method: 'GET',
  path: '/api/repos/:id/members',
  summary: "A repository's members, the caller's role and (for the owner) pending invitations",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: repoParams,
  responses: { 200: membersResponseSchema },
  errors: [400, 401, 404],
});

export const inviteToRepo = defineEndpoint({
  name: 'inviteToRepo',
  method: 'POST',
  path: '/api/repos/:id/invitations',
  summary: 'Invite someone into a repository by email with a role',
  tag,
  auth: signedIn,
  demo: { refused: DEMO_MESSAGES.invitations },
  params: repoParams,
  body: inviteBodySchema,
  responses: { 201: invitationSchema },
  errors: [400, 401, 403, 404, 409, 429],
});

export const changeRepoMemberRole = defineEndpoint({
  name: 'changeRepoMemberRole',
  method: 'PATCH',
  path: '/api/repos/:id/members/:userId',
  summary: "Change a repository member's role (owner only)",
  description: '409 for the owner (ownership is only transferred).',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: repoMemberParams,
  body: memberRoleBodySchema,
  responses: { 200: memberSchema },
  errors: [400, 401, 403, 404, 409],
});

export const removeRepoMember = defineEndpoint({
  name: 'removeRepoMember',
  method: 'DELETE',
  path: '/api/repos/:id/members/:userId',
  summary: 'Remove a repository member (owner only)',
  description:
    "Also revokes the person's pending invitations to the repository. 409 for the owner.",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: repoMemberParams,
  responses: { 204: empty() },
  errors: [400, 401, 403, 404, 409],
});

export const leaveRepo = defineEndpoint({
  name: 'leaveRepo',
  method: 'POST',
  path: '/api/repos/:id/leave',
  summary: 'Leave a repository (the owner must transfer ownership first)',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: repoParams,
  responses: { 204: empty() },
  errors: [400, 401, 403, 404, 409],
});

export const transferRepo = defineEndpoint({
  name: 'transferRepo',
  method: 'POST',
  path: '/api/repos/:id/transfer',
  summary: 'Hand a repository to an editor; the old owner becomes an editor',
  description:
    '409 unless the new owner is an editor, or when they already have a repository with this name.',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: repoParams,
  body: transferBodySchema,
  responses: { 200: repositorySchema },
  errors: [400, 401, 403, 404, 409],
});

// Collections ---------------------------------------------------------------------------------

const collectionParams = z.object({ id });
const collectionMemberParams = z.object({ id, userId: id });

export const listCollectionMembers = defineEndpoint({
  name: 'listCollectionMembers',
  method: 'GET',
  path: '/api/collections/:id/members',
  summary: "A collection's members, the caller's role and (for the owner) pending invitations",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: collectionParams,
  responses: { 200: membersResponseSchema },
  errors: [400, 401, 404],
});

export const inviteToCollection = defineEndpoint({
  name: 'inviteToCollection',
  method: 'POST',
  path: '/api/collections/:id/invitations',
  summary: 'Invite someone into a collection by email with a role',
  description:
    'A member hears an item only when they may listen to its project themselves. 409 when the address is already a member or already invited; 429 over 20 invitations an hour.',
  tag,
  auth: signedIn,
  demo: { refused: DEMO_MESSAGES.invitations },
  params: collectionParams,
  body: inviteBodySchema,
  responses: { 201: invitationSchema },
  errors: [400, 401, 403, 404, 409, 429],
});

export const changeCollectionMemberRole = defineEndpoint({
  name: 'changeCollectionMemberRole',
  method: 'PATCH',
  path: '/api/collections/:id/members/:userId',
  summary: "Change a collection member's role (owner only)",
  description: '409 for the owner.',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: collectionMemberParams,
  body: memberRoleBodySchema,
  responses: { 200: memberSchema },
  errors: [400, 401, 403, 404, 409],
});

export const removeCollectionMember = defineEndpoint({
  name: 'removeCollectionMember',
  method: 'DELETE',
  path: '/api/collections/:id/members/:userId',
  summary: 'Remove a collection member (owner only)',
  description:
    "Also revokes the person's pending invitations to the collection. 409 for the owner.",
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: collectionMemberParams,
  responses: { 204: empty() },
  errors: [400, 401, 403, 404, 409],
});

export const leaveCollection = defineEndpoint({
  name: 'leaveCollection',
  method: 'POST',
  path: '/api/collections/:id/leave',
  summary: 'Leave a collection someone else owns',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: collectionParams,
  responses: { 204: empty() },
  errors: [400, 401, 403, 404, 409],
});

// Invitations ---------------------------------------------------------------------------------

export const resendInvitation = defineEndpoint({
  name: 'resendInvitation',
  method: 'POST',
  path: '/api/invitations/:invitationId/resend',
  summary: 'Email a pending invitation again with a new link (the old link stops working)',
  tag,
  auth: signedIn,
  demo: { refused: DEMO_MESSAGES.invitations },
  params: invitationParams,
  responses: { 200: invitationSchema },
  errors: [400, 401, 403, 404, 429],
});

export const revokeInvitation = defineEndpoint({
  name: 'revokeInvitation',
  method: 'DELETE',
  path: '/api/invitations/:invitationId',
  summary: 'Revoke a pending invitation',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: invitationParams,
  responses: { 204: empty() },
  errors: [400, 401, 403, 404],
});

export const viewInvitation = defineEndpoint({
  name: 'viewInvitation',
  method: 'POST',
  path: '/api/invitations/view',
  summary: 'What an invitation link offers (the token travels in the body, never in a URL)',
  description: '410 "This invitation is no longer valid." when expired, used, revoked or unknown.',
  tag,
  auth: publicAccess,
  demo: 'allowed',
  body: invitationTokenBodySchema,
  responses: { 200: invitationViewSchema },
  errors: [400, 410, 429],
});

export const acceptInvitation = defineEndpoint({
  name: 'acceptInvitation',
  method: 'POST',
  path: '/api/invitations/accept',
  summary: 'Accept an invitation as the account it was sent to',
  description:
    '403 "This invitation was sent to {email}." for another account; 410 when no longer valid. An account that has not proven its address (made with a password) gets 403 "Confirm your email address to accept this invitation. We sent a 6-digit code to {email}." with `details.code` "email_unverified", and the code by email (at most one a minute; 429 past the sign-in codes\' limit per client address); `POST /api/auth/verify-email` with it, then accept again.',
  tag,
  auth: signedIn,
  demo: 'allowed',
  body: invitationTokenBodySchema,
  responses: { 200: acceptInvitationResponseSchema },
  errors: [400, 401, 403, 410, 429],
});
