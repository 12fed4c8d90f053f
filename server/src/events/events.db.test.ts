import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { VersionActivityEvent } from '../modules/activity';
import {
  buildMember,
  buildProject,
  buildUser,
  buildVersion,
  type BuiltUser,
} from '../../test/factories';
import { ORIGIN } from '../../test/api';
import { openSse, type SseStream } from '../../test/sse';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDialect } from '../../test/test-database';
import type { EmbeddedEventBus } from './embedded-bus';
import type { PgEventBus } from './pg-bus';

describe(`live updates: /api/events (${testDialect()})`, () => {
  let t: TestApp;
  let base: string;
  let owner: BuiltUser;
  let projectId: string;
  let branchId: string;
  let versionId: string;
  const open: SseStream[] = [];

  beforeAll(async () => {
    t = await createTestApp({ eventsHeartbeatMs: 200 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const { db } = t.deps.database;
    owner = await buildUser(db, { name: 'Olive Owner' });
    const { project, branch } = await buildProject(db, owner.id);
    projectId = project.id;
    branchId = branch.id;
    versionId = (await buildVersion(depsOf(), { projectId, branchId })).id;
  }, 60_000);

  afterAll(async () => {
    for (const s of open) s.close();
    await t?.close();
  });

  function depsOf() {
    return { db: t.deps.database.db, storage: t.deps.storage };
  }

  async function connect(path: string, cookie?: string): Promise<SseStream> {
    const stream = await openSse(`${base}${path}`, cookie ? { cookie } : {});
    open.push(stream);
    return stream;
  }

  /** A comment and its activity row in one transaction, as the comments service records them. */
  async function comment(
    onVersion: string,
    options: { rollback?: boolean; actorId?: string } = {},
  ): Promise<string> {
    const commentId = randomUUID();
    const event: VersionActivityEvent<'comment.posted'> = {
      kind: 'comment.posted',
      actor: { userId: options.actorId ?? owner.id },
      targetId: commentId,
      data: { timestamp: 12, end_timestamp: null, parent_id: null, team_only: false },
    };
    let activityId = '';
    const work = t.deps.database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('comments')
        .values({
          id: commentId,
          version_id: onVersion,
          user_id: options.actorId ?? owner.id,
          visitor_name: null,
          link_id: null,
          parent_id: null,
          content: 'A note',
          timestamp_seconds: 12,
          resolved_at: null,
          created_at: new Date().toISOString(),
          team_only: 0,
        })
        .execute();
      activityId = (await t.services.activity.recordForVersion(trx, onVersion, event)).id;
      if (options.rollback) throw new Error('rolled back on purpose');
    });
    if (options.rollback) await expect(work).rejects.toThrow('rolled back on purpose');
    else await work;
    return activityId;
  }

  async function link(onVersion: string, overrides: { expires_at?: string } = {}) {
    const hash = randomUUID().replaceAll('-', '');
    const id = randomUUID();
    await t.deps.database.db
      .insertInto('links')
      .values({
        id,
        hash,
        version_id: onVersion,
        project_id: projectId,
        owner_id: owner.id,
        name: 'For the label',
        download_enabled: 0,
        expires_at: overrides.expires_at ?? null,
        revoked_at: null,
        created_at: new Date().toISOString(),
        listeners_see_each_other: 1,
        allow_approval: 0,
        play_count: 0,
        last_played_at: null,
      })
      .execute();
    return { id, hash };
  }

  it('tells a member of a committed comment within 2 s, with the query hints', async () => {
    const editor = await buildMember(t.deps.database.db, { projectId }, 'editor');
    const stream = await connect('/api/events', editor.cookie);
    expect(stream.status).toBe(200);
    const started = Date.now();
    const activityId = await comment(versionId);
    const event = await stream.waitFor((e: { activityId?: string }) => e.activityId === activityId);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(event).toEqual({
      type: 'activity',
      activityId,
      kind: 'comment.posted',
      projectId,
      repoId: null,
      versionId,
    });
  });

  it('sends the retry hint at once and a heartbeat comment on its interval', async () => {
    const stream = await connect('/api/events', owner.cookie);
    expect(stream.lines).toContain('retry: 3000');
    await stream.waitForLine((line) => line === ': ping', 2000);
  });

  it('refuses a signed-out caller without a link (401) and a wrong link key (404)', async () => {
    const signedOut = await fetch(`${base}/api/events`);
    expect(signedOut.status).toBe(401);
    const wrong = await fetch(`${base}/api/events?link=nosuchkey${randomUUID().slice(0, 8)}`);
    expect(wrong.status).toBe(404);
    const expired = await link(versionId, {
      expires_at: new Date(Date.now() - 1000).toISOString(),
    });
    expect((await fetch(`${base}/api/events?link=${expired.hash}`)).status).toBe(410);
  });

  it('tells a non-member nothing of a project they cannot see', async () => {
    const stranger = await buildUser(t.deps.database.db, { name: 'Stranger' });
    const strangerStream = await connect('/api/events', stranger.cookie);
    expect(strangerStream.status).toBe(200);
    const ownerStream = await connect('/api/events', owner.cookie);
    const activityId = await comment(versionId);
    await ownerStream.waitFor((e: { activityId?: string }) => e.activityId === activityId);
    // The same process delivered the owner's: the stranger's would have arrived by now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(strangerStream.events).toEqual([]);
  });

  it('stops telling a member removed mid-stream at once', async () => {
    const { db } = t.deps.database;
    const commenter = await buildMember(db, { projectId }, 'commenter');
    const stream = await connect('/api/events', commenter.cookie);
    const ownerStream = await connect('/api/events', owner.cookie);
    const first = await comment(versionId);
    await stream.waitFor((e: { activityId?: string }) => e.activityId === first);

    await db.deleteFrom('project_members').where('user_id', '=', commenter.id).execute();
    const second = await comment(versionId);
    await ownerStream.waitFor((e: { activityId?: string }) => e.activityId === second);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stream.events.map((e) => (e as { activityId: string }).activityId)).not.toContain(
      second,
    );
  });

  it("tells a share link's visitor only of comments on its own version, while the link lives", async () => {
    const otherVersion = (await buildVersion(depsOf(), { projectId, branchId })).id;
    const { id: linkId, hash } = await link(versionId);
    const stream = await connect(`/api/events?link=${hash}`);
    expect(stream.status).toBe(200);
    const ownerStream = await connect('/api/events', owner.cookie);

    // Another version's comment, and a non-comment event of its own version: nothing.
    const elsewhere = await comment(otherVersion);
    const uploaded = await t.deps.database.db.transaction().execute((trx) =>
      t.services.activity.recordForVersion(trx, versionId, {
        kind: 'version.processed',
        actor: { userId: owner.id },
      }),
    );
    await ownerStream.waitFor((e: { activityId?: string }) => e.activityId === uploaded.id);
    await ownerStream.waitFor((e: { activityId?: string }) => e.activityId === elsewhere);

    const mine = await comment(versionId);
    await ownerStream.waitFor((e: { activityId?: string }) => e.activityId === mine);
    const event = await stream.waitFor((e: { kind?: string }) => e.kind === 'comment.posted');
    // Just "refresh the comments": no ids of the project or the activity.
    expect(event).toEqual({ type: 'activity', kind: 'comment.posted', versionId });
    expect(stream.events).toHaveLength(1);

    // The owner approves the version: the listener's page hears it is time to refresh it.
    const approved = await t.app.inject({
      method: 'PUT',
      url: `/api/versions/${versionId}/review`,
      payload: { status: 'approved' },
      headers: { cookie: owner.cookie, origin: ORIGIN },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const review = await stream.waitFor(
      (e: { kind?: string }) => e.kind === 'version.review_changed',
    );
    expect(review).toEqual({ type: 'activity', kind: 'version.review_changed', versionId });
    expect(stream.events).toHaveLength(2);

    // Revoked: the next comment ends the stream instead of reaching it.
    await t.deps.database.db
      .updateTable('links')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', linkId)
      .execute();
    await comment(versionId);
    await stream.ended;
    expect(stream.events).toHaveLength(2);
  });

  it('ends the stream at a heartbeat once the session is signed out or the link revoked', async () => {
    const { db } = t.deps.database;
    const member = await buildMember(db, { projectId }, 'viewer');
    const userStream = await connect('/api/events', member.cookie);
    const { id: linkId, hash } = await link(versionId);
    const linkStream = await connect(`/api/events?link=${hash}`);
    await userStream.waitForLine((line) => line === ': ping');
    await linkStream.waitForLine((line) => line === ': ping');

    await db.deleteFrom('sessions').where('user_id', '=', member.id).execute();
    await db
      .updateTable('links')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', linkId)
      .execute();
    await Promise.all([userStream.ended, linkStream.ended]);
  });

  it('lets go of a stream whose client hung up', async () => {
    const bus = t.deps.events as EmbeddedEventBus | PgEventBus;
    const before = bus.subscriberCount;
    const stream = await connect('/api/events', owner.cookie);
    expect(bus.subscriberCount).toBe(before + 1);
    stream.close();
    await vi.waitFor(() => expect(bus.subscriberCount).toBe(before), { timeout: 2000 });
  });

  it('publishes nothing for a change that rolled back', async () => {
    const stream = await connect('/api/events', owner.cookie);
    const rolledBack = await comment(versionId, { rollback: true });
    const committed = await comment(versionId);
    await stream.waitFor((e: { activityId?: string }) => e.activityId === committed);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ids = stream.events.map((e) => (e as { activityId: string }).activityId);
    expect(ids).toEqual([committed]);
    expect(ids).not.toContain(rolledBack);
  });

  it('ends open streams when the app closes', async () => {
    const other = await createTestApp();
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (other.app.server.address() as AddressInfo).port;
    const user = await buildUser(other.deps.database.db);
    const stream = await openSse(`http://127.0.0.1:${port}/api/events`, { cookie: user.cookie });
    expect(stream.status).toBe(200);
    await other.close();
    await stream.ended;
  });

  if (testDialect() === 'postgres') {
    it('listens again after its LISTEN connection is dropped', async () => {
      const bus = t.deps.events as PgEventBus;
      const pid = bus.listenerPid;
      expect(pid).not.toBeNull();
      const stream = await connect('/api/events', owner.cookie);
      await sql`select pg_terminate_backend(${pid})`.execute(t.deps.database.db);
      const deadline = Date.now() + 5000;
      while ((!bus.listening || bus.listenerPid === pid) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(bus.listening).toBe(true);
      const activityId = await comment(versionId);
      await stream.waitFor((e: { activityId?: string }) => e.activityId === activityId);
    });
  }
});
