import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import type { Endpoint } from '@takes/contract';
import { storageKeys } from '../src/modules/audio';
import {
  addMember,
  buildProject,
  buildRepo,
  buildUser,
  buildVersion,
  depsOf,
  publishBounce,
  type BuiltUser,
} from './factories';
import { api } from './api';
import { makeAudio } from './audio-fixtures';
import { buildDoors } from './door-world';
import { buildGuestUploads } from './guest-upload-world';
import { createTestApp, type TestApp } from './test-app';

/** The files a world is made from: a short WAV and a 1×1 PNG. */
export interface WorldFiles {
  wav: string;
  png: string;
}

/** Writes the world's files into `dir` (a 1-second WAV by ffmpeg, a 1×1 PNG). */
export async function makeWorldFiles(dir: string): Promise<WorldFiles> {
  const png = path.join(dir, 'cover.png');
  fs.writeFileSync(
    png,
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    ),
  );
  return { wav: await makeAudio(dir, 'wav', 1), png };
}

/** The signed-in people of a world: the owner, members by role, a stranger, a removed member. */
export type WorldUser = 'owner' | 'editor' | 'commenter' | 'viewer' | 'nonMember' | 'removed';

/** What one test world holds: a project and a repository with everything their routes name. */
export interface World {
  users: Record<WorldUser, BuiltUser>;
  project: { id: string; branchId: string; sideBranchId: string };
  version: { id: string };
  /** A second version, on the side branch (what a compare sets beside `version`). */
  sideVersion: { id: string };
  comment: { id: string };
  link: { id: string; hash: string };
  /**
   * The owner's collection (with a cover, the members in the project's roles) holding `version`,
   * shared by a link without a password.
   */
  collectionLink: { collectionId: string; itemId: string; hash: string };
  /**
   * A ready blind test of `version` and `sideVersion` (preference and ABX, no password) and one
   * listener of its link: the cookie that is that listener, and an option id they were dealt.
   */
  blindTest: { id: string; hash: string; cookie: string; optionId: string; abxOptionId: string };
  /** A ready 'Download all' zip of `collectionLink` (built as its job would). */
  collectionZip: { id: string };
  invitation: { id: string };
  /** A live invite link of the project (Commenter, 5 uses) and an open access request to it. */
  inviteLink: { id: string; key: string };
  accessRequest: { id: string };
  /** A live upload link of the default branch (no password) and a processed guest file of it. */
  uploadLink: { id: string; key: string };
  guestFile: { id: string };
  /** A live upload link of the repository's branch (no password). */
  repoUploadLink: { id: string; key: string };
  publicProject: { id: string; versionId: string };
  repo: { id: string; sha: string; bounceId: string };
}

/** The world's objects by path parameter name; `withShareKey`: the link's key, else a wrong one. */
export function defaultParams(w: World, withShareKey: boolean): Record<string, string> {
  return {
    projectId: w.project.id,
    branchId: w.project.sideBranchId,
    versionId: w.version.id,
    commentId: w.comment.id,
    linkId: w.link.id,
    hash: withShareKey ? w.link.hash : 'wrong-key-' + randomUUID().slice(0, 8),
    id: w.repo.id,
    itemId: randomUUID(),
    optionId: w.blindTest.optionId,
    bounceId: w.repo.bounceId,
    sha: w.repo.sha,
    invitationId: w.invitation.id,
    inviteLinkId: w.inviteLink.id,
    requestId: w.accessRequest.id,
    zipId: w.collectionZip.id,
    userId: w.users.viewer.id,
    provider: 'google',
  };
}

/** The endpoint's path with `params` put in (each encoded, the wildcard as given). */
export function pathOf(endpoint: Endpoint, params: Record<string, string>): string {
  return endpoint.path.replace(/:(\w+)|\*/g, (whole, name: string | undefined) => {
    const key = name ?? '*';
    const value = params[key];
    if (value === undefined) throw new Error(`${endpoint.name}: no value for ${whole}`);
    return key === '*' ? value : encodeURIComponent(value);
  });
}

/**
 * A fresh world in the test app's database and store: an owner's project (a default and a side
 * branch, a processed version, a comment, a share link, an invitation), a Public project with a
 * version, and a repository with a cover and a published bounce. Editor, commenter and viewer are
 * members of both; `removed` was an editor until their rows were deleted.
 */
export async function buildWorld(t: TestApp, files: WorldFiles): Promise<World> {
  const deps = depsOf(t);
  const { db } = deps;
  const owner = await buildUser(db, { name: 'Olive Owner' });
  const { project, branch } = await buildProject(db, owner.id);
  const side = {
    id: randomUUID(),
    project_id: project.id,
    name: 'side',
    is_default: 0,
    created_at: project.created_at,
    updated_at: project.created_at,
  };
  await db.insertInto('branches').values(side).execute();
  const version = await buildVersion(
    deps,
    { projectId: project.id, branchId: branch.id },
    { file: files.wav, processed: true },
  );
  const sideVersion = await buildVersion(deps, { projectId: project.id, branchId: side.id });
  const repo = await buildRepo(db, owner.id);
  const bounce = await publishBounce(deps, repo.id, files.wav);
  const coverKey = storageKeys.cover(repo.id, randomUUID());
  await deps.storage.put(coverKey, Readable.from([fs.readFileSync(files.png)]), {
    contentType: 'image/png',
  });
  await db
    .updateTable('repos')
    .set({ cover_key: coverKey, cover_type: 'image/png' })
    .where('id', '=', repo.id)
    .execute();

  const users = { owner } as World['users'];
  for (const role of ['editor', 'commenter', 'viewer'] as const) {
    users[role] = await buildUser(db, { name: `A ${role}` });
    await addMember(db, { projectId: project.id }, users[role].id, role);
    await addMember(db, { repoId: repo.id }, users[role].id, role);
  }
  users.nonMember = await buildUser(db, { name: 'Stranger' });
  users.removed = await buildUser(db, { name: 'Former editor' });
  await addMember(db, { projectId: project.id }, users.removed.id, 'editor');
  await addMember(db, { repoId: repo.id }, users.removed.id, 'editor');
  await db.deleteFrom('project_members').where('user_id', '=', users.removed.id).execute();
  await db.deleteFrom('repo_members').where('user_id', '=', users.removed.id).execute();

  const now = new Date().toISOString();
  const commentId = randomUUID();
  await db
    .insertInto('comments')
    .values({
      id: commentId,
      version_id: version.id,
      user_id: owner.id,
      visitor_name: null,
      link_id: null,
      parent_id: null,
      content: 'Owner note',
      timestamp_seconds: 3,
      resolved_at: null,
      created_at: now,
      team_only: 0,
    })
    .execute();
  const link = { id: randomUUID(), hash: randomUUID().replaceAll('-', '') };
  await db
    .insertInto('links')
    .values({
      id: link.id,
      hash: link.hash,
      version_id: version.id,
      project_id: project.id,
      owner_id: owner.id,
      name: 'Band',
      download_enabled: 1,
      expires_at: null,
      revoked_at: null,
      created_at: now,
      listeners_see_each_other: 1,
      // 'Allow approval': the visitor may set the review status.
      allow_approval: 1,
      play_count: 0,
      last_played_at: null,
    })
    .execute();
  const collectionLink = {
    collectionId: randomUUID(),
    itemId: randomUUID(),
    hash: randomUUID().replaceAll('-', ''),
  };
  // With a cover, as the repository has.
  const collectionCoverKey = storageKeys.collectionCover(collectionLink.collectionId, randomUUID());
  await deps.storage.put(collectionCoverKey, Readable.from([fs.readFileSync(files.png)]), {
    contentType: 'image/png',
  });
  await db
    .insertInto('collections')
    .values({
      id: collectionLink.collectionId,
      owner_id: owner.id,
      name: 'Mixes',
      description: null,
      cover_key: collectionCoverKey,
      cover_type: 'image/png',
      created_at: now,
      updated_at: now,
    })
    .execute();
  // Its members have the roles they have in the project; the removed member was an editor.
  for (const role of ['editor', 'commenter', 'viewer'] as const)
    await addMember(db, { collectionId: collectionLink.collectionId }, users[role].id, role);
  await addMember(db, { collectionId: collectionLink.collectionId }, users.removed.id, 'editor');
  await db.deleteFrom('collection_members').where('user_id', '=', users.removed.id).execute();
  await db
    .insertInto('collection_items')
    .values({
      id: collectionLink.itemId,
      collection_id: collectionLink.collectionId,
      position: 0,
      version_id: version.id,
      branch_id: null,
      added_by: owner.id,
      created_at: now,
    })
    .execute();
  await db
    .insertInto('collection_links')
    .values({
      id: randomUUID(),
      collection_id: collectionLink.collectionId,
      hash: collectionLink.hash,
      name: 'For the band',
      recipient_name: null,
      recipient_email: null,
      expires_at: null,
      download_enabled: 1,
      password_hash: null,
      revoked_at: null,
      created_at: now,
    })
    .execute();
  const zipper = { address: '127.0.0.1', links: t.services.collectionLinks };
  const opened = await zipper.links.open(collectionLink.hash, zipper.address, undefined);
  const collectionZip = await t.services.collectionZips.start(opened, zipper.address);
  await t.services.collectionZips.build(collectionZip.id, {
    attempt: 1,
    lastAttempt: true,
    signal: new AbortController().signal,
    logger: { info() {}, warn() {}, error() {} },
  });
  const invitationId = randomUUID();
  await db
    .insertInto('invitations')
    .values({
      id: invitationId,
      project_id: project.id,
      repo_id: null,
      email: `invited-${randomUUID()}@example.test`,
      role: 'commenter',
      token_hash: randomUUID().replaceAll('-', ''),
      inviter_id: owner.id,
      created_at: now,
      sent_at: now,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      accepted_at: null,
      accepted_by: null,
      revoked_at: null,
    })
    .execute();

  const doors = await buildDoors(db, { id: project.id, ownerId: owner.id });
  const guests = await buildGuestUploads(
    db,
    { id: project.id, branchId: branch.id, ownerId: owner.id },
    version,
    { id: repo.id, branchId: bounce.branch_id },
  );

  const blindTest = await buildBlindTest(db, {
    projectId: project.id,
    versionIds: [version.id, sideVersion.id],
    now,
  });

  const { project: pub, branch: pubBranch } = await buildProject(db, owner.id, {
    is_private: 0,
  });
  const pubVersion = await buildVersion(
    deps,
    { projectId: pub.id, branchId: pubBranch.id },
    { file: files.wav, processed: true },
  );

  return {
    users,
    project: { id: project.id, branchId: branch.id, sideBranchId: side.id },
    version: { id: version.id },
    sideVersion: { id: sideVersion.id },
    comment: { id: commentId },
    link,
    collectionLink,
    blindTest,
    collectionZip: { id: collectionZip.id },
    invitation: { id: invitationId },
    ...doors,
    ...guests,
    publicProject: { id: pub.id, versionId: pubVersion.id },
    repo: { id: repo.id, sha: bounce.commit_sha, bounceId: bounce.id },
  };
}

/** A ready blind test whose options play the versions' 320k renditions, with one listener. */
async function buildBlindTest(
  db: ReturnType<typeof depsOf>['db'],
  target: { projectId: string; versionIds: [string, string]; now: string },
): Promise<World['blindTest']> {
  const id = randomUUID();
  const hash = randomUUID().replaceAll('-', '');
  const linkId = randomUUID();
  await db
    .insertInto('blind_tests')
    .values({
      id,
      project_id: target.projectId,
      created_by: null,
      name: 'World blind test',
      mode: 'both',
      trials: 5,
      reveal_after_voting: 0,
      status: 'ready',
      error: null,
      duration: 1,
      password_hash: null,
      expires_at: null,
      revoked_at: null,
      created_at: target.now,
    })
    .execute();
  const versions = await db
    .selectFrom('versions')
    .select(['id', 'renditions'])
    .where('id', 'in', target.versionIds)
    .execute();
  for (const [position, versionId] of target.versionIds.entries()) {
    const renditions = JSON.parse(versions.find((v) => v.id === versionId)?.renditions ?? '{}') as {
      high?: { key: string };
    };
    await db
      .insertInto('blind_test_options')
      .values({
        test_id: id,
        version_id: versionId,
        position,
        audio_key: renditions.high?.key ?? null,
        size: null,
        gain_db: 0,
      })
      .execute();
  }
  await db
    .insertInto('blind_test_links')
    .values({
      id: linkId,
      test_id: id,
      hash,
      position: 0,
      recipient_name: null,
      recipient_email: null,
      created_at: target.now,
    })
    .execute();
  const token = randomUUID();
  const [a, b] = target.versionIds;
  const dealt = (versionId: string) => ({ version_id: versionId, option_id: randomUUID() });
  const preference = [dealt(a), dealt(b)];
  const abx = { a: dealt(a), b: dealt(b) };
  await db
    .insertInto('blind_listeners')
    .values({
      id: randomUUID(),
      test_id: id,
      link_id: linkId,
      token_hash: createHash('sha256').update(token).digest('base64url'),
      name: null,
      assignment: JSON.stringify({ preference, abx }),
      created_at: target.now,
      last_activity_at: target.now,
    })
    .execute();
  return {
    id,
    hash,
    cookie: `takes_blt_${id.replace(/[^A-Za-z0-9]/g, '')}=${token}`,
    optionId: preference[0]?.option_id ?? '',
    abxOptionId: abx.a.option_id,
  };
}

/**
 * The attack of issue 41 as the world's `role` member makes it through the API: their own
 * collection holding the world's version, shared by a link that allows downloads (no password).
 */
export async function memberCollectionLink(
  t: TestApp,
  w: World,
  role: 'viewer' | 'commenter' | 'editor' | 'owner',
): Promise<{ collectionId: string; itemId: string; hash: string }> {
  const as = api(t, w.users[role].cookie);
  const made = await as.post('/api/collections', { name: `${role}'s picks` });
  const collectionId = made.json<{ id: string }>().id;
  const added = await as.post(`/api/collections/${collectionId}/items`, {
    version_id: w.version.id,
  });
  if (added.statusCode !== 201) throw new Error(`adding the version: ${added.body}`);
  const shared = await as.post(`/api/collections/${collectionId}/links`, {
    name: 'For anyone',
    download_enabled: true,
  });
  if (shared.statusCode !== 201) throw new Error(`sharing the collection: ${shared.body}`);
  const [link] = shared.json<{ links: { key: string }[] }>().links;
  return { collectionId, itemId: added.json<{ id: string }>().id, hash: link?.key ?? '' };
}

export interface WorldApp {
  t: TestApp;
  files: WorldFiles;
  world: World;
}

/** A test app with a world in it, made before a test file's tests and removed after them. */
export function useWorldApp(): WorldApp {
  const context = {} as WorldApp;
  let dir: string | undefined;
  beforeAll(async () => {
    context.t = await createTestApp();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-world-'));
    context.files = await makeWorldFiles(dir);
    context.world = await buildWorld(context.t, context.files);
  }, 60_000);
  afterAll(async () => {
    await context.t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return context;
}
