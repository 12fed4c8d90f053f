import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type ApiClient } from '@takes/contract';
import type { VersionActivityEvent } from '../activity';
import { client } from '../../../test/api';
import {
  buildMember,
  buildProject,
  buildUser,
  buildVersion,
  depsOf,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

const api = endpoints.activity;

/** The in-app list: pages, the unread count, marking read by id, by page or all. */
describe('notifications in-app', () => {
  let t: TestApp;
  let as: (user: { cookie: string }) => ApiClient;
  const db = () => t.deps.database.db;

  beforeAll(async () => {
    t = await createTestApp();
    as = (user) => client(t, user.cookie);
  });
  afterAll(() => t.close());

  /** A member's comment row on a version at `seconds` (as the comments service writes one). */
  async function comment(
    author: { userId: string },
    options: { version: string; seconds?: number },
  ): Promise<string> {
    const id = randomUUID();
    await db()
      .insertInto('comments')
      .values({
        id,
        version_id: options.version,
        user_id: author.userId,
        visitor_name: null,
        link_id: null,
        parent_id: null,
        content: 'Nice',
        timestamp_seconds: options.seconds ?? 83,
        resolved_at: null,
        created_at: new Date().toISOString(),
        team_only: 0,
      })
      .execute();
    return id;
  }
  /** Records an event about a version as a service does: inside a transaction. */
  const recordOn = (version: string, event: VersionActivityEvent) =>
    db()
      .transaction()
      .execute((trx) => t.services.activity.recordForVersion(trx, version, event));
  /** What the comments service keeps about a comment at `seconds`. */
  const at = (seconds = 83) => ({
    timestamp: seconds,
    end_timestamp: null,
    parent_id: null,
    team_only: false,
  });

  it('lists newest first with a cursor, counts and filters unread, and marks read by id, page or all', async () => {
    const me = await buildUser(db(), { name: 'Reader' });
    const p = await buildProject(db(), me.id, { name: 'Night Drive' });
    const v1 = await buildVersion(depsOf(t), { projectId: p.project.id, branchId: p.branch.id });
    const v2 = await buildVersion(depsOf(t), { projectId: p.project.id, branchId: p.branch.id });
    const maya = await buildMember(db(), { projectId: p.project.id }, 'commenter', {
      name: 'Maya',
    });
    const made: string[] = [];
    for (const [version, seconds] of [
      [v1.id, 83],
      [v1.id, 5],
      [v2.id, 61],
    ] as const) {
      const c = await comment({ userId: maya.id }, { version, seconds });
      made.push(
        (
          await recordOn(version, {
            kind: 'comment.posted',
            actor: { userId: maya.id },
            targetId: c,
            data: at(seconds),
          })
        ).id,
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const me_ = as(me);
    const first = await me_.call(api.listNotifications, { query: { limit: 2 } });
    expect(first.unread_count).toBe(3);
    expect(first.items.map((n) => n.activity.id)).toEqual([made[2], made[1]]);
    expect(first.items[0]).toMatchObject({
      category: 'comments',
      read: false,
      activity: {
        kind: 'comment.posted',
        actor: { user_id: maya.id, name: 'Maya' },
        project_id: p.project.id,
        summary: 'Maya commented at 1:01 on Version 2',
        href: `/projects/${p.project.id}/branches/${p.branch.id}/versions/${v2.id}?t=61`,
      },
    });
    expect(first.next_cursor).not.toBeNull();
    const second = await me_.call(api.listNotifications, {
      query: { limit: 2, cursor: first.next_cursor ?? undefined },
    });
    expect(second.items.map((n) => n.activity.id)).toEqual([made[0]]);
    expect(second.next_cursor).toBeNull();

    // Someone else's notification ids are ignored.
    const others = await db()
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '!=', me.id)
      .where('read_at', 'is', null)
      .execute();
    const newest = first.items[0]?.id ?? '';
    await me_.call(api.markNotificationsRead, {
      body: { ids: [newest, ...others.map((o) => o.id)] },
    });
    const stillUnread = await db()
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '!=', me.id)
      .where('read_at', 'is', null)
      .execute();
    expect(stillUnread.length).toBe(others.length);
    const unread = await me_.call(api.listNotifications, { query: { unread: 'true' } });
    expect(unread.unread_count).toBe(2);
    expect(unread.items.map((n) => n.activity.id)).toEqual([made[1], made[0]]);
    const all = await me_.call(api.listNotifications, {});
    expect(all.items.map((n) => n.read)).toEqual([true, false, false]);

    // Reading the version page marks its notifications read (whatever its ?t=).
    await me_.call(api.markNotificationsRead, {
      body: { href: `/projects/${p.project.id}/branches/${p.branch.id}/versions/${v1.id}` },
    });
    expect((await me_.call(api.listNotifications, {})).unread_count).toBe(0);

    const c = await comment({ userId: maya.id }, { version: v2.id });
    await recordOn(v2.id, {
      kind: 'comment.posted',
      actor: { userId: maya.id },
      targetId: c,
      data: at(),
    });
    // Another page marks nothing.
    await me_.call(api.markNotificationsRead, { body: { href: `/projects/${p.project.id}` } });
    expect((await me_.call(api.listNotifications, {})).unread_count).toBe(1);
    await me_.call(api.markNotificationsRead, { body: { all: true } });
    expect((await me_.call(api.listNotifications, {})).unread_count).toBe(0);
  });
});
