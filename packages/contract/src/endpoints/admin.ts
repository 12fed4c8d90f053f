import { z } from 'zod';
import {
  adminActionsQuerySchema,
  adminActionsSchema,
  adminSignupsBodySchema,
  adminSignupsSchema,
  adminStorageSchema,
  adminUserSchema,
  adminUsersSchema,
  disableUserBodySchema,
  linkDefaultsSchema,
  signupInvitationBodySchema,
  storageUsageSchema,
  userQuotaBodySchema,
} from '../admin';
import { DEMO_MESSAGES } from '../demo';
import { defineEndpoint } from '../endpoint';
import { okSchema, signedIn } from './shared';

const tag = 'admin';
const userParams = z.object({ id: z.string().min(1).max(100) });
/** The admin routes answer 404 to anyone who is not an admin of the instance, as /api/debug does. */
const adminOnly = {
  tag,
  auth: signedIn,
  demo: { refused: DEMO_MESSAGES.debug },
  description:
    "For anyone but the instance's admins (ADMIN_EMAILS) the route does not exist (404).",
} as const;

export const listAdminUsers = defineEndpoint({
  ...adminOnly,
  name: 'listAdminUsers',
  method: 'GET',
  path: '/api/admin/users',
  summary: 'Everyone with an account: joined, last seen, storage used, projects, disabled',
  responses: { 200: adminUsersSchema },
  errors: [401, 403, 404],
});

export const disableUser = defineEndpoint({
  ...adminOnly,
  name: 'disableUser',
  method: 'POST',
  path: '/api/admin/users/:id/disable',
  summary: 'Disable an account: signed out everywhere at once, desktop tokens revoked',
  params: userParams,
  body: disableUserBodySchema,
  responses: { 200: adminUserSchema },
  errors: [400, 401, 403, 404],
});

export const enableUser = defineEndpoint({
  ...adminOnly,
  name: 'enableUser',
  method: 'POST',
  path: '/api/admin/users/:id/enable',
  summary: 'Enable a disabled account again',
  params: userParams,
  responses: { 200: adminUserSchema },
  errors: [401, 403, 404],
});

export const setUserQuota = defineEndpoint({
  ...adminOnly,
  name: 'setUserQuota',
  method: 'PUT',
  path: '/api/admin/users/:id/quota',
  summary: "Set one person's storage quota (null: the instance's applies)",
  params: userParams,
  body: userQuotaBodySchema,
  responses: { 200: adminUserSchema },
  errors: [400, 401, 403, 404],
});

export const getAdminSignups = defineEndpoint({
  ...adminOnly,
  name: 'getAdminSignups',
  method: 'GET',
  path: '/api/admin/signups',
  summary: 'The sign-up policy in force, and whether an admin or SIGNUPS set it',
  responses: { 200: adminSignupsSchema },
  errors: [401, 403, 404],
});

export const setAdminSignups = defineEndpoint({
  ...adminOnly,
  name: 'setAdminSignups',
  method: 'PUT',
  path: '/api/admin/signups',
  summary: 'Store a sign-up policy over SIGNUPS',
  body: adminSignupsBodySchema,
  responses: { 200: adminSignupsSchema },
  errors: [400, 401, 403, 404],
});

export const resetAdminSignups = defineEndpoint({
  ...adminOnly,
  name: 'resetAdminSignups',
  method: 'DELETE',
  path: '/api/admin/signups',
  summary: 'Forget the stored sign-up policy: SIGNUPS applies again',
  responses: { 200: adminSignupsSchema },
  errors: [401, 403, 404],
});

export const inviteToSignUp = defineEndpoint({
  ...adminOnly,
  name: 'inviteToSignUp',
  method: 'POST',
  path: '/api/admin/invitations',
  summary: 'Invite an address to make an account, whatever the sign-up policy (emailed)',
  body: signupInvitationBodySchema,
  responses: { 200: okSchema },
  errors: [400, 401, 403, 404, 429],
});

export const getAdminLinkDefaults = defineEndpoint({
  ...adminOnly,
  name: 'getAdminLinkDefaults',
  method: 'GET',
  path: '/api/admin/link-defaults',
  summary: 'The defaults new share links start from',
  responses: { 200: linkDefaultsSchema },
  errors: [401, 403, 404],
});

export const setAdminLinkDefaults = defineEndpoint({
  ...adminOnly,
  name: 'setAdminLinkDefaults',
  method: 'PUT',
  path: '/api/admin/link-defaults',
  summary: 'Set the defaults new share links start from',
  body: linkDefaultsSchema,
  responses: { 200: linkDefaultsSchema },
  errors: [400, 401, 403, 404],
});

export const getAdminStorage = defineEndpoint({
  ...adminOnly,
  name: 'getAdminStorage',
  method: 'GET',
  path: '/api/admin/storage',
  summary: 'The storage the instance uses, in all and by kind',
  responses: { 200: adminStorageSchema },
  errors: [401, 403, 404],
});

export const listAdminActions = defineEndpoint({
  ...adminOnly,
  name: 'listAdminActions',
  method: 'GET',
  path: '/api/admin/actions',
  summary: 'Every admin action, newest first (who, what, when)',
  query: adminActionsQuerySchema,
  responses: { 200: adminActionsSchema },
  errors: [400, 401, 403, 404],
});

export const getLinkDefaults = defineEndpoint({
  name: 'getLinkDefaults',
  method: 'GET',
  path: '/api/link-defaults',
  summary: 'The defaults a new share link starts from (the share dialogs read them)',
  tag,
  auth: signedIn,
  demo: 'allowed',
  responses: { 200: linkDefaultsSchema },
  errors: [401],
});

export const getMyStorage = defineEndpoint({
  name: 'getMyStorage',
  method: 'GET',
  path: '/api/account/storage',
  summary: 'What your originals and renditions take, and your storage quota',
  tag,
  auth: signedIn,
  demo: 'allowed',
  responses: { 200: storageUsageSchema },
  errors: [401],
});
