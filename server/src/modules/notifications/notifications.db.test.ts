import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type ApiClient } from '@takes/contract';
import type { ActivityEvent, VersionActivityEvent } from '../activity';
import { client } from '../../../test/api';
import {
  buildMember,
  buildProject,
  buildRepo,
  buildUser,
  buildVersion,
  depsOf,
  type BuiltUser,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

const api = endpoints.activity;

/** Who hears of what: recipients per event, categories, preferences; the in-app list. */
describe('notifications', () => {
  let t: TestApp;
  let as: (user: { cookie: string }) => ApiClient;
  let owner: BuiltUser;
  let editor: BuiltUser;
  let commenter: BuiltUser;
  let viewer: BuiltUser;
  let outsider: BuiltUser;
  let projectId: string;
  let branchId: string;
  let versionId: string;

  const db = () => t.deps.database.db;

  /** Records an event as a service does: inside a transaction. */
  const record = (event: ActivityEvent) =>
    db()
      .transaction()
      .execute((trx) => t.services.activity.record(trx, event));
  /** Records an event about a version (a comment's: its version) as a service does. */
  const recordOn = (version: string, event: VersionActivityEvent) =>
    db()
      .transaction()
      .execute((trx) => t.services.activity.recordForVersion(trx, version, event));
  /** What the comments service keeps about a comment at `seconds`. */
  const at = (seconds = 83, parentId: string | null = null) => ({
    timestamp: seconds,
    end_timestamp: null,
    parent_id: parentId,
    team_only: false,
  });

  /** A comment row (as the comments service writes one), for replies to point at. */
  async function comment(
    author: { userId: string } | { visitor: string },
    options: { parentId?: string; seconds?: number; version?: string } = {},
  ): Promise<string> {
    const id = randomUUID();
    await db()
      .insertInto('comments')
      .values({
        id,
        version_id: options.version ?? versionId,
        user_id: 'userId' in author ? author.userId : null,
        visitor_name: 'visitor' in author ? author.visitor : null,
        link_id: null,
        parent_id: options.parentId ?? null,
        content: 'Nice',
        timestamp_seconds: options.seconds ?? 83,
        resolved_at: null,
        created_at: new Date().toISOString(),
        team_only: 0,
      })
      .execute();
    return id;
  }

  /** Who got a notification of this activity row, with category and email flag. */
  async function notified(activityId: string) {
    const rows = await db()
      .selectFrom('notifications')
      .select(['user_id', 'category', 'email'])
      .where('activity_id', '=', activityId)
      .execute();
    return rows
      .map((r) => ({ user: r.user_id, category: r.category, email: Number(r.email) }))
      .sort((a, b) => a.user.localeCompare(b.user));
  }
  const usersOf = async (activityId: string) =>
    (await notified(activityId)).map((n) => n.user).sort();
  const sorted = (...users: { id: string }[]) => users.map((u) => u.id).sort();

  beforeAll(async () => {
    t = await createTestApp();
    as = (user) => client(t, user.cookie);
    owner = await buildUser(db(), { name: 'Olivia Owner' });
    const built = await buildProject(db(), owner.id, { name: 'Client Mix' });
    projectId = built.project.id;
    branchId = built.branch.id;
    editor = await buildMember(db(), { projectId }, 'editor', { name: 'Eddie Editor' });
    commenter = await buildMember(db(), { projectId }, 'commenter', { name: 'Cora Commenter' });
    viewer = await buildMember(db(), { projectId }, 'viewer', { name: 'Vic Viewer' });
    outsider = await buildUser(db(), { name: 'Oscar Outsider' });
    versionId = (await buildVersion(depsOf(t), { projectId, branchId })).id;
  });
  afterAll(() => t.close());

  describe('recipients', () => {
    it('a comment: the owner and members who may comment, never the actor, viewers or non-members', async () => {
      const id = await comment({ userId: editor.id });
      const row = await recordOn(versionId, {
        kind: 'comment.posted',
        actor: { userId: editor.id },
        targetId: id,
        data: at(),
      });
      expect(await notified(row.id)).toEqual(
        [
          { user: owner.id, category: 'comments', email: 1 },
          { user: commenter.id, category: 'comments', email: 1 },
        ].sort((a, b) => a.user.localeCompare(b.user)),
      );
    });

    it("a visitor's comment through a link reaches the owner and members (not viewers)", async () => {
      const id = await comment({ visitor: 'Maya' });
      const row = await recordOn(versionId, {
        kind: 'comment.posted',
        actor: { visitorName: 'Maya' },
        targetId: id,
        data: at(),
      });
      expect(await usersOf(row.id)).toEqual(sorted(owner, editor, commenter));
    });

    it('a reply reaches the author of the comment it answers, even one who is now a Viewer', async () => {
      // The viewer wrote this comment while they were a Commenter.
      const parent = await comment({ userId: viewer.id });
      const reply = await comment({ userId: owner.id }, { parentId: parent });
      const row = await recordOn(versionId, {
        kind: 'comment.replied',
        actor: { userId: owner.id },
        targetId: reply,
        data: at(83, parent),
      });
      expect(await usersOf(row.id)).toEqual(sorted(editor, commenter, viewer));
    });

    it('a reply to the comment of someone who can no longer see the project does not reach them', async () => {
      const parent = await comment({ userId: outsider.id });
      const reply = await comment({ userId: editor.id }, { parentId: parent });
      const row = await recordOn(versionId, {
        kind: 'comment.replied',
        actor: { userId: editor.id },
        targetId: reply,
        data: at(83, parent),
      });
      expect(await usersOf(row.id)).toEqual(sorted(owner, commenter));
    });

    it('a new version reaches everyone who can see the project, viewers too, not the uploader', async () => {
      const row = await recordOn(versionId, {
        kind: 'version.uploaded',
        actor: { userId: editor.id },
      });
      expect(await notified(row.id)).toEqual(
        [owner, commenter, viewer]
          .map((u) => ({ user: u.id, category: 'versions', email: 0 }))
          .sort((a, b) => a.user.localeCompare(b.user)),
      );
    });

    it('processing: a finished version tells its uploader only; a failure tells everyone', async () => {
      const v = await buildVersion(depsOf(t), { projectId, branchId });
      await recordOn(v.id, { kind: 'version.uploaded', actor: { userId: editor.id } });
      // The job has no user: recorded as 'Takes', the uploader found from the upload's activity.
      const processed = await recordOn(v.id, {
        kind: 'version.processed',
        actor: { visitorName: 'Takes' },
      });
      expect(await notified(processed.id)).toEqual([
        { user: editor.id, category: 'processing', email: 0 },
      ]);
      const failed = await recordOn(v.id, { kind: 'version.failed', actor: { userId: editor.id } });
      expect(await usersOf(failed.id)).toEqual(sorted(owner, editor, commenter, viewer));
    });

    it('membership changes reach the members, not the actor, and not a removed member', async () => {
      const joined = await buildMember(db(), { projectId }, 'viewer', { name: 'Jo Joined' });
      const row = await record({
        kind: 'member.joined',
        projectId,
        actor: { userId: joined.id },
        targetId: joined.id,
        data: { role: 'viewer' },
      });
      expect(await notified(row.id)).toEqual(
        [owner, editor, commenter, viewer]
          .map((u) => ({ user: u.id, category: 'membership', email: 0 }))
          .sort((a, b) => a.user.localeCompare(b.user)),
      );
      await db()
        .deleteFrom('project_members')
        .where('project_id', '=', projectId)
        .where('user_id', '=', joined.id)
        .execute();
      const removed = await record({
        kind: 'member.removed',
        projectId,
        actor: { userId: owner.id },
        targetId: joined.id,
        data: { member_name: 'Jo Joined' },
      });
      expect(await usersOf(removed.id)).toEqual(sorted(editor, commenter, viewer));
    });

    it("a link's first play tells the link's owner only, in the Activity panel's words", async () => {
      const linkId = randomUUID();
      await db()
        .insertInto('links')
        .values({
          id: linkId,
          hash: randomUUID(),
          version_id: versionId,
          project_id: projectId,
          owner_id: editor.id,
          name: 'Client Mix - Version 2',
          download_enabled: 0,
          expires_at: null,
          revoked_at: null,
          created_at: new Date().toISOString(),
          listeners_see_each_other: 1,
          allow_approval: 0,
          play_count: 0,
          last_played_at: null,
        })
        .execute();
      const row = await recordOn(versionId, {
        kind: 'link.first_played',
        actor: { visitorName: 'A listener' },
        targetId: linkId,
        data: { link_name: 'Client Mix - Version 2' },
      });
      expect(await notified(row.id)).toEqual([{ user: editor.id, category: 'versions', email: 0 }]);
      const page = await as(editor).call(api.listNotifications, { query: { limit: 1 } });
      expect(page.items[0]?.activity.summary).toBe(
        "A listener played the share link 'Client Mix - Version 2' for the first time",
      );
    });

    it("a repository's events reach its owner and members only", async () => {
      const repo = await buildRepo(db(), owner.id);
      const member = await buildMember(db(), { repoId: repo.id }, 'viewer');
      const sha = 'a'.repeat(40);
      const row = await record({
        kind: 'repo.committed',
        repoId: repo.id,
        actor: { userId: owner.id },
        targetId: randomUUID(),
        data: { sha, message: 'Rough vocals', branch_name: 'main' },
      });
      expect(await usersOf(row.id)).toEqual([member.id]);
      const mine = await as(member).call(api.listNotifications, {});
      expect(mine.items[0]?.activity).toMatchObject({
        repo_id: repo.id,
        href: `/repositories/${repo.id}/commit/${sha}`,
      });
      // Reading the commit's page marks it read.
      await as(member).call(api.markNotificationsRead, {
        body: { href: `/repositories/${repo.id}/commit/${sha}` },
      });
      expect((await as(member).call(api.listNotifications, {})).unread_count).toBe(0);
    });

    it('kinds that are activity only notify nobody', async () => {
      const row = await record({
        kind: 'project.renamed',
        projectId,
        actor: { userId: owner.id },
        data: { old_name: 'Client Mix', new_name: 'Client Mix', project_name: 'Client Mix' },
      });
      expect(await notified(row.id)).toEqual([]);
    });

    it('a rolled-back change leaves no notification', async () => {
      const id = await comment({ visitor: 'Maya' });
      let activityId = '';
      await expect(
        db()
          .transaction()
          .execute(async (trx) => {
            activityId = (
              await t.services.activity.recordForVersion(trx, versionId, {
                kind: 'comment.posted',
                actor: { visitorName: 'Maya' },
                targetId: id,
                data: at(),
              })
            ).id;
            throw new Error('the change failed');
          }),
      ).rejects.toThrow('the change failed');
      expect(await notified(activityId)).toEqual([]);
    });
  });

  describe('preferences', () => {
    it("default to 'Email and in-app' for comments and 'In-app only' for the rest", async () => {
      const fresh = await buildUser(db());
      expect(await as(fresh).call(api.getNotificationPreferences, {})).toEqual({
        comments: 'email_and_in_app',
        versions: 'in_app',
        membership: 'in_app',
        processing: 'in_app',
      });
    });

    it('are honoured per recipient and category: off (no row), in-app (no email), email', async () => {
      const p = await buildProject(db(), owner.id);
      const off = await buildMember(db(), { projectId: p.project.id }, 'commenter');
      const inApp = await buildMember(db(), { projectId: p.project.id }, 'commenter');
      const email = await buildMember(db(), { projectId: p.project.id }, 'viewer');
      await as(off).call(api.updateNotificationPreferences, {
        body: { comments: 'off', versions: 'off', membership: 'off', processing: 'off' },
      });
      expect(
        await as(inApp).call(api.updateNotificationPreferences, {
          body: { comments: 'in_app', versions: 'in_app', membership: 'off', processing: 'in_app' },
        }),
      ).toEqual({
        comments: 'in_app',
        versions: 'in_app',
        membership: 'off',
        processing: 'in_app',
      });
      await as(email).call(api.updateNotificationPreferences, {
        body: {
          comments: 'off',
          versions: 'email_and_in_app',
          membership: 'in_app',
          processing: 'in_app',
        },
      });
      const v = await buildVersion(depsOf(t), { projectId: p.project.id, branchId: p.branch.id });
      const c = await comment({ visitor: 'Maya' }, { version: v.id });
      const commented = await recordOn(v.id, {
        kind: 'comment.posted',
        actor: { visitorName: 'Maya' },
        targetId: c,
        data: at(),
      });
      expect(await notified(commented.id)).toEqual(
        [
          { user: owner.id, category: 'comments', email: 1 },
          { user: inApp.id, category: 'comments', email: 0 },
        ].sort((a, b) => a.user.localeCompare(b.user)),
      );
      const uploaded = await recordOn(v.id, {
        kind: 'version.uploaded',
        actor: { userId: owner.id },
      });
      expect(await notified(uploaded.id)).toEqual(
        [
          { user: inApp.id, category: 'versions', email: 0 },
          { user: email.id, category: 'versions', email: 1 },
        ].sort((a, b) => a.user.localeCompare(b.user)),
      );
    });
  });
});
