import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTIONS,
  allEndpoints,
  roleAtLeast,
  type Action,
  type Endpoint,
  type Role,
} from '@takes/contract';
import { ORIGIN } from '../../test/api';
import { createTestApp, type TestApp } from '../../test/test-app';
import {
  buildWorld,
  defaultParams,
  makeWorldFiles,
  pathOf,
  type World,
  type WorldFiles,
} from '../../test/world';

/**
 * The access table: every operation of the OpenAPI document the running app serves, called as
 * each kind of caller, with the expected status of every pair declared in TABLE below. The
 * operations come from the app itself, so a route added without a row here fails this test.
 *
 * Callers: anonymous (no credentials, and a wrong share key where a path takes one), the owner,
 * an editor, a commenter and a viewer (members of the project AND the repository), a signed-in
 * non-member, a removed member (was an editor, row deleted), and a share-link visitor (no
 * session, the right share key).
 */

const CALLERS = [
  'anonymous',
  'linkVisitor',
  'nonMember',
  'removed',
  'viewer',
  'commenter',
  'editor',
  'owner',
] as const;
type Caller = (typeof CALLERS)[number];
type Expect = Record<Caller, number>;

const MEMBER_ROLES: Partial<Record<Caller, Role>> = {
  viewer: 'viewer',
  commenter: 'commenter',
  editor: 'editor',
  owner: 'owner',
};

/** A project's or repository's object: members by role, 404 for strangers, 401 signed out. */
function needs(action: Action, ok: number): Expect {
  const out = { anonymous: 401, linkVisitor: 401, nonMember: 404, removed: 404 } as Expect;
  for (const caller of ['viewer', 'commenter', 'editor', 'owner'] as const)
    out[caller] = roleAtLeast(MEMBER_ROLES[caller], ACTIONS[action]) ? ok : 403;
  return out;
}
/** The caller's own things (their account, their lists): any signed-in person. */
function signedIn(ok: number): Expect {
  return {
    anonymous: 401,
    linkVisitor: 401,
    nonMember: ok,
    removed: ok,
    viewer: ok,
    commenter: ok,
    editor: ok,
    owner: ok,
  };
}
/** A call on the world's collection (`id`), with more of its own. */
function inCollection(w: World, call: Call = {}): Call {
  return { ...call, params: { id: w.collectionLink.collectionId, ...call.params } };
}
/** Everyone gets the same answer (public pages, public files). */
/** An admin route's call on one of the world's people. */
function adminCall(w: World, body?: object): Call {
  return { params: { id: w.users.viewer.id }, ...(body ? { body } : {}) };
}

function everyone(status: number): Expect {
  return Object.fromEntries(CALLERS.map((c) => [c, status])) as Expect;
}
/** The world's blind-test listener (its cookie) on the right key; others on a wrong key. */
function blindListener(w: World, caller: Caller, call: Call): Call {
  if (caller !== 'linkVisitor') return call;
  return {
    ...call,
    params: { hash: w.blindTest.hash, ...call.params },
    headers: { cookie: w.blindTest.cookie, ...call.headers },
  };
}
/** Opened by a share link's key: the visitor holding it gets in, anyone with a wrong key 404. */
function withShareKey(ok: number): Expect {
  return { ...everyone(404), linkVisitor: ok };
}

interface Call {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  multipart?: {
    fields: Record<string, string>;
    file: { field: string; name: string; path: string };
  };
  headers?: Record<string, string>;
}

interface Row {
  expect: Expect;
  /** Path values, query, body for this caller (defaults: the world's objects by parameter name). */
  call?: (w: World, caller: Caller) => Call;
}

let audio: WorldFiles;

const TABLE: Record<string, Row> = {
  // ---- not about anyone's objects ----
  getHealth: { expect: everyone(200) },
  getAuthProviders: { expect: everyone(200) },
  // Asking who is signed in is not an error: signed out, the answer is 200 with no user.
  getSession: { expect: everyone(200) },
  // An empty body is refused before anything else: these are the sign-in doors.
  getMagicLinkDetails: { expect: everyone(400), call: () => ({ body: {} }) },
  signInWithEmail: { expect: everyone(400), call: () => ({ body: {} }) },
  signUpWithEmail: { expect: everyone(400), call: () => ({ body: {} }) },
  sendMagicCode: { expect: everyone(400), call: () => ({ body: {} }) },
  verifyMagicCode: { expect: everyone(400), call: () => ({ body: {} }) },
  // A signed-in account confirms its address; no code was mailed here, so any code is wrong.
  verifyEmail: { expect: signedIn(400), call: () => ({ body: { code: '000000' } }) },
  signInWithMagicLink: { expect: everyone(400), call: () => ({ body: {} }) },
  openMagicLink: { expect: everyone(302) },
  // No sign-in provider is configured in tests: the door says it is unavailable.
  startSocialSignIn: { expect: everyone(503), call: () => ({ body: {} }) },
  oauthCallback: { expect: everyone(302) },
  oauthCallbackPost: { expect: everyone(302) },
  signOut: { expect: everyone(200) },
  signOutOtherSessions: { expect: signedIn(200) },
  changePassword: {
    expect: signedIn(400),
    call: () => ({
      body: { current_password: 'not-the-password', new_password: 'Correct-horse-battery-9' },
    }),
  },
  startDemo: { expect: everyone(200) },
  approveDesktopSignIn: { expect: signedIn(200) },
  exchangeDesktopCode: { expect: everyone(400), call: () => ({ body: {} }) },
  getDesktopConfig: { expect: everyone(200) },
  listDesktopDevices: { expect: signedIn(200) },
  refreshDesktopToken: { expect: everyone(400), call: () => ({ body: {} }) },
  revokeDesktopDevice: { expect: signedIn(404), call: () => ({ params: { id: randomUUID() } }) },
  listPlayerApps: { expect: signedIn(200) },
  // Every caller makes their own key (the limit is per person, 20).
  createPlayerApp: { expect: signedIn(201), call: () => ({ body: { name: 'Car (Symfonium)' } }) },
  revokePlayerApp: {
    expect: signedIn(404),
    call: () => ({ params: { playerAppId: randomUUID() } }),
  },
  getAvatar: { expect: everyone(404) },
  getProfile: { expect: signedIn(200) },
  updateProfile: { expect: signedIn(200), call: () => ({ body: { display_name: 'Someone' } }) },
  uploadAvatar: {
    expect: signedIn(200),
    call: () => ({
      multipart: { fields: {}, file: { field: 'avatar', name: 'me.png', path: audio.png } },
    }),
  },
  getBlogPost: { expect: everyone(404), call: () => ({ params: { slug: 'no-such-post' } }) },
  listBlogPosts: { expect: everyone(200) },
  getLatestDesktopRelease: { expect: everyone(404), call: () => ({ params: { platform: 'mac' } }) },
  getRobotsTxt: { expect: everyone(200) },
  getSitemap: { expect: everyone(200) },
  sendContactMessage: { expect: everyone(400), call: () => ({ body: {} }) },
  // A stored object opens only with its signature, whoever asks.
  getStoredObject: { expect: everyone(400), call: () => ({ params: { '*': 'covers/x/y' } }) },
  // Only instance admins know the debug page exists.
  getDebugReport: { expect: signedIn(404) },
  runDebugRoundTrip: { expect: signedIn(404) },
  // The admin page's routes: the same (admin@example.test is in none of the worlds).
  listAdminUsers: { expect: signedIn(404) },
  disableUser: { expect: signedIn(404), call: (w) => adminCall(w, { keep_links: false }) },
  enableUser: { expect: signedIn(404), call: (w) => adminCall(w) },
  setUserQuota: {
    expect: signedIn(404),
    call: (w) => adminCall(w, { storage_quota_bytes: 1000 }),
  },
  getAdminSignups: { expect: signedIn(404) },
  setAdminSignups: { expect: signedIn(404), call: () => ({ body: { policy: 'closed' } }) },
  resetAdminSignups: { expect: signedIn(404) },
  inviteToSignUp: { expect: signedIn(404), call: () => ({ body: { email: 'new@example.test' } }) },
  getAdminLinkDefaults: { expect: signedIn(404) },
  setAdminLinkDefaults: {
    expect: signedIn(404),
    call: () => ({ body: { expires_in_days: 7, allow_downloads: true } }),
  },
  getAdminStorage: { expect: signedIn(404) },
  listAdminActions: { expect: signedIn(404) },
  // What the share dialogs start from, and one's own storage line: anyone signed in.
  getLinkDefaults: { expect: signedIn(200) },
  getMyStorage: { expect: signedIn(200) },

  // ---- the caller's own lists and creations ----
  listProjects: { expect: signedIn(200) },
  listSharedProjects: { expect: signedIn(200) },
  createProject: { expect: signedIn(201), call: () => ({ body: { name: 'New one' } }) },
  listRecentVersions: { expect: signedIn(200) },
  getStats: { expect: signedIn(200) },
  search: { expect: signedIn(200), call: () => ({ query: { q: 'Project' } }) },
  createRepo: { expect: signedIn(201), call: () => ({ body: { name: `R ${randomUUID()}` } }) },
  createRepository: {
    expect: signedIn(201),
    call: () => ({ body: { name: `R ${randomUUID()}` } }),
  },
  listRepositories: { expect: signedIn(200) },
  listRecentBounces: { expect: signedIn(200) },
  // A wrong or used invitation token, whoever asks.
  viewInvitation: { expect: everyone(410), call: () => ({ body: { token: 'x'.repeat(43) } }) },
  acceptInvitation: { expect: signedIn(410), call: () => ({ body: { token: 'x'.repeat(43) } }) },

  // ---- collections: the world's has the project's members in their roles (ACTIONS) ----
  listCollections: { expect: signedIn(200) },
  createCollection: { expect: signedIn(201), call: () => ({ body: { name: 'Mixes' } }) },
  getCollection: { expect: needs('view', 200), call: (w) => inCollection(w) },
  updateCollection: {
    expect: needs('rename', 200),
    call: (w) => inCollection(w, { body: { name: 'Renamed' } }),
  },
  deleteCollection: { expect: needs('delete', 204), call: (w) => inCollection(w) },
  // The world's collection holds the version already.
  addCollectionItem: {
    expect: needs('editItems', 409),
    call: (w) => inCollection(w, { body: { version_id: w.version.id } }),
  },
  removeCollectionItem: {
    expect: needs('editItems', 204),
    call: (w) => inCollection(w, { params: { itemId: w.collectionLink.itemId } }),
  },
  // Not its current items: 'The collection changed'.
  reorderCollection: {
    expect: needs('editItems', 409),
    call: (w) => inCollection(w, { body: { item_ids: [] } }),
  },
  createCollectionLinks: {
    expect: needs('shareCollection', 201),
    call: (w) => inCollection(w, { body: { name: 'For the band' } }),
  },
  listCollectionLinks: { expect: needs('shareCollection', 200), call: (w) => inCollection(w) },
  revokeCollectionLink: {
    expect: needs('shareCollection', 404),
    call: (w) => inCollection(w, { params: { linkId: randomUUID() } }),
  },
  setCollectionCover: {
    expect: needs('editCover', 200),
    call: (w) =>
      inCollection(w, {
        multipart: {
          fields: {},
          file: { field: 'cover_image', name: 'cover.png', path: audio.png },
        },
      }),
  },
  deleteCollectionCover: { expect: needs('editCover', 204), call: (w) => inCollection(w) },
  getCollectionCover: { expect: needs('view', 200), call: (w) => inCollection(w) },
  listCollectionMembers: { expect: needs('view', 200), call: (w) => inCollection(w) },
  inviteToCollection: {
    expect: needs('manageMembers', 201),
    call: (w) =>
      inCollection(w, { body: { email: `new-${randomUUID()}@example.test`, role: 'viewer' } }),
  },
  changeCollectionMemberRole: {
    expect: needs('manageMembers', 200),
    call: (w) =>
      inCollection(w, { params: { userId: w.users.viewer.id }, body: { role: 'commenter' } }),
  },
  removeCollectionMember: {
    expect: needs('manageMembers', 204),
    call: (w) => inCollection(w, { params: { userId: w.users.viewer.id } }),
  },
  // Any member may leave; a collection's owner cannot.
  leaveCollection: { expect: { ...needs('view', 204), owner: 409 }, call: (w) => inCollection(w) },
  // ---- collection links (the key is the credential; the world's link has no password) ----
  getCollectionLinkCover: {
    expect: withShareKey(200),
    call: (w, caller) =>
      caller === 'linkVisitor' ? { params: { hash: w.collectionLink.hash } } : {},
  },
  openCollectionLink: {
    expect: withShareKey(200),
    call: (w, caller) =>
      caller === 'linkVisitor' ? { params: { hash: w.collectionLink.hash } } : {},
  },
  streamCollectionLinkItem: {
    expect: withShareKey(200),
    call: (w, caller) => ({
      params: {
        ...(caller === 'linkVisitor' ? { hash: w.collectionLink.hash } : {}),
        itemId: w.collectionLink.itemId,
      },
    }),
  },
  recordCollectionLinkReceipt: {
    expect: withShareKey(204),
    call: (w, caller) => ({
      params: {
        ...(caller === 'linkVisitor' ? { hash: w.collectionLink.hash } : {}),
        itemId: w.collectionLink.itemId,
      },
      body: { event: 'play' },
    }),
  },
  // The world's link allows downloads.
  downloadCollectionLinkItem: {
    expect: withShareKey(200),
    call: (w, caller) => ({
      params: {
        ...(caller === 'linkVisitor' ? { hash: w.collectionLink.hash } : {}),
        itemId: w.collectionLink.itemId,
      },
    }),
  },
  listCollectionLinkItemComments: {
    expect: withShareKey(200),
    call: (w, caller) => ({
      params: {
        ...(caller === 'linkVisitor' ? { hash: w.collectionLink.hash } : {}),
        itemId: w.collectionLink.itemId,
      },
    }),
  },
  addCollectionLinkItemComment: {
    expect: withShareKey(201),
    call: (w, caller) => ({
      params: {
        ...(caller === 'linkVisitor' ? { hash: w.collectionLink.hash } : {}),
        itemId: w.collectionLink.itemId,
      },
      body: { content: 'Lovely', visitor_name: 'Sam' },
    }),
  },
  // 'Download all': the world's link allows downloads and has a ready zip.
  startCollectionLinkZip: {
    expect: withShareKey(202),
    call: (w, caller) =>
      caller === 'linkVisitor' ? { params: { hash: w.collectionLink.hash } } : {},
  },
  getCollectionLinkZip: {
    expect: withShareKey(200),
    call: (w, caller) => ({
      params: {
        ...(caller === 'linkVisitor' ? { hash: w.collectionLink.hash } : {}),
        zipId: w.collectionZip.id,
      },
    }),
  },
  downloadCollectionLinkZip: {
    expect: withShareKey(200),
    call: (w, caller) => ({
      params: {
        ...(caller === 'linkVisitor' ? { hash: w.collectionLink.hash } : {}),
        zipId: w.collectionZip.id,
      },
    }),
  },
  // No password set: any password is wrong.
  unlockCollectionLink: {
    expect: withShareKey(401),
    call: (w, caller) => ({
      ...(caller === 'linkVisitor' ? { params: { hash: w.collectionLink.hash } } : {}),
      body: { password: 'not-the-password' },
    }),
  },
  // ---- notifications: the caller's own ----
  listNotifications: { expect: signedIn(200) },
  markNotificationsRead: { expect: signedIn(204), call: () => ({ body: { all: true } }) },
  getNotificationPreferences: { expect: signedIn(200) },
  updateNotificationPreferences: {
    expect: signedIn(200),
    call: () => ({
      body: { comments: 'in_app', versions: 'off', membership: 'in_app', processing: 'off' },
    }),
  },
  // ---- 'Export my data': the caller's own (another person's export id is not found) ----
  startDataExport: { expect: signedIn(202) },
  getLatestDataExport: { expect: signedIn(200) },
  downloadDataExport: { expect: signedIn(404), call: () => ({ params: { id: randomUUID() } }) },
  // The email's link carries a signed token: a forged one is refused, whoever follows it.
  unsubscribePage: { expect: everyone(410), call: () => ({ query: { token: 'x'.repeat(40) } }) },
  unsubscribeOneClick: {
    expect: everyone(410),
    call: () => ({ query: { token: 'x'.repeat(40) } }),
  },
  // The live-update stream: any signed-in person (they hear only of what they can see); a
  // share link's visitor with the link's key (anonymous callers come without one).
  streamEvents: {
    expect: { ...signedIn(200), linkVisitor: 200 },
    call: (w, caller) => (caller === 'linkVisitor' ? { query: { link: w.link.hash } } : {}),
  },

  // ---- a project's objects ----
  listProjectActivity: { expect: needs('view', 200) },
  getProject: { expect: needs('view', 200) },
  listBranches: { expect: needs('view', 200) },
  updateProject: { expect: needs('rename', 200), call: () => ({ body: { name: 'Renamed' } }) },
  toggleProjectPrivacy: { expect: needs('changePrivacy', 200) },
  deleteProject: { expect: needs('delete', 204) },
  createBranch: {
    expect: needs('manageBranches', 201),
    call: () => ({ body: { name: `b-${randomUUID().slice(0, 6)}` } }),
  },
  renameBranch: {
    expect: needs('manageBranches', 200),
    call: () => ({ body: { name: 'renamed' } }),
  },
  deleteBranch: { expect: needs('manageBranches', 204) },
  setDefaultBranch: { expect: needs('manageBranches', 200) },
  listBranchVersions: {
    expect: needs('view', 200),
    call: (w) => ({ params: { projectId: w.project.id, branchId: w.project.branchId } }),
  },
  getVersion: { expect: needs('view', 200) },
  getVersionProcessing: { expect: needs('view', 200) },
  getVersionQualities: { expect: needs('view', 200) },
  getVersionPeaks: { expect: needs('listen', 200) },
  streamVersion: { expect: needs('listen', 200) },
  downloadVersion: { expect: needs('download', 200) },
  deleteVersion: { expect: needs('editVersions', 204) },
  uploadVersion: {
    expect: needs('upload', 201),
    call: (w) => ({
      multipart: {
        fields: { project_id: w.project.id, branch_id: w.project.branchId, commit_message: 'v2' },
        file: { field: 'audio_file', name: 'take.wav', path: audio.wav },
      },
    }),
  },
  createVersionFromUrl: {
    expect: needs('upload', 201),
    call: (w) => ({
      body: {
        project_id: w.project.id,
        branch_id: w.project.branchId,
        message: 'from a URL',
        file_url: 'https://example.com/take.mp3',
      },
    }),
  },
  listVersionComments: { expect: needs('view', 200) },
  getVersionMarkers: {
    expect: needs('view', 200),
    call: () => ({ query: { format: 'reaper' } }),
  },
  addVersionComment: {
    expect: needs('comment', 201),
    call: () => ({ body: { content: 'Lovely', timestamp: 1 } }),
  },
  // The world's comment is the owner's: resolving or deleting it is moderation.
  setCommentResolved: {
    expect: needs('moderateComments', 200),
    call: () => ({ body: { resolved: true } }),
  },
  deleteComment: { expect: needs('moderateComments', 204) },
  getVersionReview: { expect: needs('view', 200) },
  setVersionReview: {
    expect: needs('review', 200),
    call: () => ({ body: { status: 'approved' } }),
  },
  compareVersions: {
    expect: needs('view', 200),
    call: (w) => ({ query: { a: w.version.id, b: w.sideVersion.id } }),
  },
  getVersionAlignment: {
    expect: needs('view', 200),
    call: (w) => ({ query: { to: w.sideVersion.id } }),
  },
  getVersionChanges: {
    expect: needs('view', 200),
    call: (w) => ({ query: { against: w.sideVersion.id } }),
  },
  listShareLinks: { expect: needs('share', 200) },
  createShareLink: {
    expect: needs('share', 201),
    call: () => ({ body: { name: 'For the band' } }),
  },
  updateShareLink: {
    expect: needs('share', 200),
    call: () => ({ body: { listeners_see_each_other: false } }),
  },
  revokeShareLink: { expect: needs('share', 204) },
  listProjectMembers: { expect: needs('view', 200) },
  inviteToProject: {
    expect: needs('manageMembers', 201),
    call: () => ({ body: { email: `new-${randomUUID()}@example.test`, role: 'viewer' } }),
  },
  changeProjectMemberRole: {
    expect: needs('manageMembers', 200),
    call: (w) => ({
      params: { projectId: w.project.id, userId: w.users.viewer.id },
      body: { role: 'commenter' },
    }),
  },
  removeProjectMember: {
    expect: needs('manageMembers', 204),
    call: (w) => ({ params: { projectId: w.project.id, userId: w.users.viewer.id } }),
  },
  // Any member may leave; the owner must hand the project over first.
  leaveProject: {
    expect: { ...needs('view', 204), owner: 409 },
  },
  transferProject: {
    expect: needs('manageMembers', 200),
    call: (w) => ({ body: { user_id: w.users.editor.id } }),
  },
  resendInvitation: { expect: needs('manageMembers', 200) },
  revokeInvitation: { expect: needs('manageMembers', 204) },
  // Invite links: the owner's to make, list and revoke; whoever holds one (the key, in the
  // body) sees its offer, and any signed-in person joins (a member already in keeps their role).
  listInviteLinks: { expect: needs('manageMembers', 200) },
  createInviteLink: { expect: needs('manageMembers', 201), call: () => ({ body: {} }) },
  revokeInviteLink: { expect: needs('manageMembers', 204) },
  viewInviteLink: { expect: everyone(200), call: (w) => ({ body: { key: w.inviteLink.key } }) },
  joinInviteLink: { expect: signedIn(200), call: (w) => ({ body: { key: w.inviteLink.key } }) },
  // Access requests: a signed-in listener holding the link asks (members are in already: 409);
  // only the owner lists and decides them.
  requestAccessFromLink: {
    expect: { ...signedIn(201), viewer: 409, commenter: 409, editor: 409, owner: 409 },
    call: (w) => ({ params: { hash: w.link.hash }, body: { note: 'Let me in' } }),
  },
  requestAccessFromCollectionLink: {
    expect: { ...signedIn(201), viewer: 409, commenter: 409, editor: 409, owner: 409 },
    call: (w) => ({
      params: { hash: w.collectionLink.hash },
      body: { item_id: w.collectionLink.itemId },
    }),
  },
  listAccessRequests: { expect: needs('manageMembers', 200) },
  grantAccessRequest: {
    expect: needs('manageMembers', 200),
    call: () => ({ body: { role: 'commenter' } }),
  },
  declineAccessRequest: { expect: needs('manageMembers', 204) },

  // ---- share links (the key is the credential) ----
  openShareLink: { expect: withShareKey(200) },
  // The world's link has no password: any password is wrong.
  unlockShareLink: {
    expect: withShareKey(401),
    call: () => ({ body: { password: 'not-the-password' } }),
  },
  streamShareLink: { expect: withShareKey(200) },
  // The world's link allows approval; the visitor gives a name.
  setShareLinkReview: {
    expect: withShareKey(200),
    call: () => ({ body: { status: 'changes_requested', visitor_name: 'Lena' } }),
  },
  downloadShareLink: { expect: withShareKey(200) },
  listShareLinkComments: { expect: withShareKey(200) },
  getShareLinkMarkers: {
    expect: withShareKey(200),
    call: () => ({ query: { format: 'audacity' } }),
  },
  addShareLinkComment: {
    expect: withShareKey(201),
    call: () => ({ body: { content: 'Great', visitor_name: 'Sam' } }),
  },

  // ---- blind tests: made and read by whoever may share the project ----
  // The side version has not been processed: it cannot be in a blind test yet.
  createBlindTest: {
    expect: needs('share', 409),
    call: (w) => ({
      body: {
        version_ids: [w.version.id, w.sideVersion.id],
        mode: 'preference',
        name: 'Which mix',
      },
    }),
  },
  listBlindTests: { expect: needs('share', 200) },
  getBlindTestResults: {
    expect: needs('share', 200),
    call: (w) => ({ params: { id: w.blindTest.id } }),
  },
  // Revoking is tried on a test that does not exist (the world's stays open for the rows below).
  revokeBlindTest: {
    expect: { ...everyone(404), anonymous: 401, linkVisitor: 401 },
    call: () => ({ params: { id: randomUUID() } }),
  },
  markBlindTestWinner: {
    expect: needs('share', 200),
    call: (w) => ({ params: { id: w.blindTest.id }, body: { version_id: w.version.id } }),
  },
  // ---- file requests: the team's upload links and guests' files (the world's: one link of the
  // default branch and one processed file sent through it) ----
  createUploadLink: {
    expect: needs('upload', 201),
    call: (w) => ({ body: { branch_id: w.project.branchId, name: 'Bass takes' } }),
  },
  listUploadLinks: { expect: needs('upload', 200) },
  revokeUploadLink: {
    expect: needs('upload', 204),
    call: (w) => ({ params: { id: w.uploadLink.id } }),
  },
  listGuestFiles: { expect: needs('listen', 200) },
  streamGuestFile: {
    expect: needs('listen', 200),
    call: (w) => ({ params: { id: w.guestFile.id } }),
  },
  acceptGuestFile: {
    expect: needs('upload', 201),
    call: (w) => ({ params: { id: w.guestFile.id }, body: { message: 'From Sam' } }),
  },
  declineGuestFile: {
    expect: needs('upload', 204),
    call: (w) => ({ params: { id: w.guestFile.id } }),
  },
  // A repository's upload links (its branch by name) and guests' files: `publish` to make one.
  createRepoUploadLink: {
    expect: needs('publish', 201),
    call: () => ({ body: { branch: 'main', name: 'Masters' } }),
  },
  listRepoUploadLinks: { expect: needs('publish', 200) },
  listRepoGuestFiles: { expect: needs('listen', 200) },
  // ---- an upload link's guest (the key is the credential; nothing of the project is shown) ----
  openUploadLink: {
    expect: withShareKey(200),
    call: (w, caller) => (caller === 'linkVisitor' ? { params: { hash: w.uploadLink.key } } : {}),
  },
  // The world's upload link has no password: any password is wrong.
  unlockUploadLink: {
    expect: withShareKey(401),
    call: (w, caller) => ({
      ...(caller === 'linkVisitor' ? { params: { hash: w.uploadLink.key } } : {}),
      body: { password: 'not-the-password' },
    }),
  },
  // ---- a blind test's link (the key is the credential; the listener is the cookie) ----
  openBlindTest: {
    expect: withShareKey(200),
    call: (w, caller) => (caller === 'linkVisitor' ? { params: { hash: w.blindTest.hash } } : {}),
  },
  // The world's blind test has no password: any password is wrong.
  unlockBlindTest: {
    expect: withShareKey(401),
    call: (w, caller) => ({
      ...(caller === 'linkVisitor' ? { params: { hash: w.blindTest.hash } } : {}),
      body: { password: 'not-the-password' },
    }),
  },
  streamBlindOption: {
    expect: withShareKey(200),
    call: (w, caller) => blindListener(w, caller, {}),
  },
  voteBlindTest: {
    expect: withShareKey(200),
    call: (w, caller) =>
      blindListener(w, caller, { body: { name: 'Sam', option_id: w.blindTest.optionId } }),
  },
  startBlindTrial: {
    expect: withShareKey(200),
    call: (w, caller) => blindListener(w, caller, { body: { name: 'Sam' } }),
  },
  // No trial 99 is running: answered out of order.
  answerBlindTrial: {
    expect: withShareKey(409),
    call: (w, caller) =>
      blindListener(w, caller, { body: { trial: 99, answer: w.blindTest.abxOptionId } }),
  },

  // ---- a Public project (the world's second project), for anyone ----
  getPublicProject: {
    expect: everyone(200),
    call: (w) => ({ params: { projectId: w.publicProject.id } }),
  },
  streamPublicVersion: {
    expect: everyone(200),
    call: (w) => ({ params: { versionId: w.publicProject.versionId } }),
  },

  // ---- a repository's objects ----
  getRepo: { expect: needs('view', 200) },
  getRepository: { expect: needs('view', 200) },
  renameRepo: {
    expect: needs('rename', 200),
    call: () => ({ body: { name: `Renamed ${randomUUID()}` } }),
  },
  deleteRepo: { expect: needs('delete', 204) },
  getRepoCover: { expect: needs('view', 200) },
  uploadRepoCover: {
    expect: needs('editCover', 200),
    call: () => ({
      multipart: { fields: {}, file: { field: 'cover_image', name: 'cover.png', path: audio.png } },
    }),
  },
  listRepoBranches: { expect: needs('view', 200) },
  createRepoBranch: {
    expect: needs('publish', 201),
    call: () => ({ body: { name: `b-${randomUUID().slice(0, 6)}` } }),
  },
  listRepoCommits: { expect: needs('view', 200) },
  createRepoCommit: {
    expect: needs('publish', 201),
    call: () => ({ body: { branch: 'main', message: 'Mix notes' } }),
  },
  listPatches: { expect: needs('view', 200) },
  createPatch: {
    expect: needs('publish', 201),
    call: () => ({ body: { message: 'patch', patch_hash: randomBytes(20).toString('hex') } }),
  },
  listCommitBounces: { expect: needs('view', 200) },
  listRepoBounces: { expect: needs('view', 200) },
  getBounce: { expect: needs('view', 200) },
  streamBounce: { expect: needs('listen', 200) },
  deleteBounce: { expect: needs('editVersions', 204) },
  publishBounce: {
    expect: needs('publish', 201),
    call: (w) => ({
      body: { repo_id: w.repo.id, branch: 'main', filename: 'Mix.wav', size: 1000 },
    }),
  },
  // Completing names an upload this caller never started: members who may publish learn it is
  // not theirs (404), the rest are refused for their role first.
  completeBounce: {
    expect: { ...needs('publish', 404) },
    call: (w) => ({
      body: { repo_id: w.repo.id, branch: 'main', filename: 'Mix.wav', upload_id: randomUUID() },
    }),
  },
  // The PUT is opened by the upload's own token (from publishBounce): an unknown upload is 404.
  uploadBounceFile: { expect: everyone(404), call: () => ({ params: { uploadId: randomUUID() } }) },
  listRepoMembers: { expect: needs('view', 200) },
  listRepoActivity: { expect: needs('view', 200) },
  inviteToRepo: {
    expect: needs('manageMembers', 201),
    call: () => ({ body: { email: `new-${randomUUID()}@example.test`, role: 'viewer' } }),
  },
  changeRepoMemberRole: {
    expect: needs('manageMembers', 200),
    call: (w) => ({
      params: { id: w.repo.id, userId: w.users.viewer.id },
      body: { role: 'commenter' },
    }),
  },
  removeRepoMember: {
    expect: needs('manageMembers', 204),
    call: (w) => ({ params: { id: w.repo.id, userId: w.users.viewer.id } }),
  },
  leaveRepo: { expect: { ...needs('view', 204), owner: 409 } },
  transferRepo: {
    expect: needs('manageMembers', 200),
    call: (w) => ({ body: { user_id: w.users.editor.id } }),
  },
};

function multipartBody(m: NonNullable<Call['multipart']>): { body: Buffer; type: string } {
  const boundary = `----takes${randomUUID()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(m.fields))
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${m.file.field}"; filename="${m.file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    fs.readFileSync(m.file.path),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

describe('the access table: every operation of the served OpenAPI document, as every caller', () => {
  let t: TestApp;
  let dir: string;
  const operations: { name: string; method: string; path: string; statuses: Set<number> }[] = [];
  let ip = 0;

  beforeAll(async () => {
    t = await createTestApp({ env: { ADMIN_EMAILS: 'admin@example.test' } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-access-'));
    audio = await makeWorldFiles(dir);
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { operationId: string; responses: object }>>;
    }>();
    for (const [p, methods] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(methods))
        operations.push({
          name: op.operationId,
          method: method.toUpperCase(),
          path: p,
          statuses: new Set(Object.keys(op.responses).map(Number)),
        });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function callAs(endpoint: Endpoint, w: World, caller: Caller, row: Row) {
    const call = row.call?.(w, caller) ?? {};
    const params = { ...defaultParams(w, caller === 'linkVisitor'), ...call.params };
    let url = pathOf(endpoint, params);
    if (call.query) url += `?${new URLSearchParams(call.query).toString()}`;
    const headers: Record<string, string> = { origin: ORIGIN, ...call.headers };
    if (caller !== 'anonymous' && caller !== 'linkVisitor') headers.cookie = w.users[caller].cookie;
    let payload: string | Buffer | undefined;
    if (call.multipart) {
      const m = multipartBody(call.multipart);
      payload = m.body;
      headers['content-type'] = m.type;
    } else if (call.body !== undefined) {
      payload = JSON.stringify(call.body);
      headers['content-type'] = 'application/json';
    }
    // A new client address per call: the per-address limits (share-key misses) stay out of it.
    ip += 1;
    const remoteAddress = `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`;
    if (endpoint.name === 'streamEvents') {
      // An endless response: read its status, then hang up.
      const response = await t.app.inject({
        method: endpoint.method,
        url,
        headers,
        remoteAddress,
        payloadAsStream: true,
      });
      response.stream().destroy();
      return response.statusCode;
    }
    const response = await t.app.inject({
      method: endpoint.method,
      url,
      headers,
      payload,
      remoteAddress,
    });
    return response.statusCode;
  }

  it('has one row for every operation the app serves, and no row for one it does not', () => {
    const served = operations.map((o) => o.name).sort();
    expect(served.length).toBeGreaterThan(100);
    expect(Object.keys(TABLE).sort()).toEqual(served);
  });

  it('answers every caller of every operation as the table says, with a documented status', async () => {
    const byName = new Map(allEndpoints.map((e) => [e.name, e]));
    const mismatches: string[] = [];
    const undocumented: string[] = [];
    // Reading changes nothing: every GET operation is asked of one shared world, and each
    // operation that may change something starts from a fresh one.
    let readWorld: World | null = null;
    for (const op of operations) {
      const row = TABLE[op.name];
      const endpoint = byName.get(op.name);
      if (!row || !endpoint) continue;
      let world =
        endpoint.method === 'GET'
          ? (readWorld ??= await buildWorld(t, audio))
          : await buildWorld(t, audio);
      for (const caller of CALLERS) {
        const status = await callAs(endpoint, world, caller, row);
        if (status !== row.expect[caller])
          mismatches.push(`${op.name} as ${caller}: ${status} (expected ${row.expect[caller]})`);
        if (!op.statuses.has(status) && status !== 401)
          undocumented.push(`${op.name} answers ${status} as ${caller}, not in its document`);
        // A call that changed something gets the next caller a fresh world.
        if (endpoint.method !== 'GET' && status < 300) world = await buildWorld(t, audio);
      }
    }
    expect(mismatches).toEqual([]);
    expect(undocumented).toEqual([]);
  }, 900_000);
});
