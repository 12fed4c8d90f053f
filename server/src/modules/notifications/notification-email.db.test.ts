import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '@takes/contract';
import { SmtpMailer, type Mailer } from '../../mail/mailer';
import { client } from '../../../test/api';
import {
  buildMember,
  buildProject,
  buildUser,
  buildVersion,
  depsOf,
  type BuiltUser,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { NotificationsRepo } from './notifications.repo';
import { NotificationsService } from './notifications.service';
import { body, header, startRawSmtp, unsubscribeUrl, type RawMail } from './testing';

const api = endpoints.activity;

describe('notification emails', () => {
  let smtp: Awaited<ReturnType<typeof startRawSmtp>>;
  let t: TestApp | undefined;
  beforeAll(async () => {
    smtp = await startRawSmtp();
  });
  afterAll(() => smtp.close());
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  const mailsTo = (user: { email: string }) =>
    smtp.messages.filter((m) => m.to.includes(user.email));

  async function start(env: Record<string, string> = {}) {
    t = await createTestApp({
      mailer: new SmtpMailer(smtp.url, 'Takes <no-reply@takes.test>'),
      env,
    });
    const app = t;
    const db = app.deps.database.db;
    const owner = await buildUser(db, { name: 'Olivia Owner' });
    const { project, branch } = await buildProject(db, owner.id, { name: 'Client Mix' });
    const version = await buildVersion(depsOf(app), { projectId: project.id, branchId: branch.id });
    /** A visitor's comment at `seconds`, recorded as the comments service records one. */
    const visitorComment = async (seconds: number) => {
      const id = randomUUID();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('comments')
          .values({
            id,
            version_id: version.id,
            user_id: null,
            visitor_name: 'Maya',
            link_id: null,
            parent_id: null,
            content: `Note at ${seconds}`,
            timestamp_seconds: seconds,
            resolved_at: null,
            created_at: new Date().toISOString(),
            team_only: 0,
          })
          .execute();
        await app.services.activity.recordForVersion(trx, version.id, {
          kind: 'comment.posted',
          actor: { visitorName: 'Maya' },
          targetId: id,
          data: { timestamp: seconds, end_timestamp: null, parent_id: null, team_only: false },
        });
      });
    };
    const batchJobs = async () =>
      (
        await db
          .selectFrom('jobs')
          .select('payload')
          .where('name', '=', 'notifications.send-batch')
          .execute()
      ).map((j) => JSON.parse(j.payload) as { userId: string; batchId: string });
    return { app, db, owner, project, branch, version, visitorComment, batchJobs };
  }

  it('a burst of 20 comments in one window becomes one email per recipient, with List-Unsubscribe', async () => {
    const { app, db, owner, project, branch, version, visitorComment, batchJobs } = await start({
      NOTIFICATION_BATCH_SECONDS: '2',
    });
    const editor = await buildMember(db, { projectId: project.id }, 'editor');
    const inApp = await buildMember(db, { projectId: project.id }, 'commenter');
    const viewer = await buildMember(db, { projectId: project.id }, 'viewer');
    await client(app, inApp.cookie).call(api.updateNotificationPreferences, {
      body: { comments: 'in_app', versions: 'in_app', membership: 'in_app', processing: 'in_app' },
    });
    for (let i = 0; i < 20; i++) await visitorComment(60 + i);
    // One batch job per recipient with email on, scheduled at the end of the window.
    expect((await batchJobs()).map((j) => j.userId).sort()).toEqual([owner.id, editor.id].sort());

    await app.deps.jobs.startWorking();
    await smtp.waitFor(owner.email);
    await smtp.waitFor(editor.email);
    // Nothing else follows for them, and nothing at all for the in-app-only member or the viewer.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(mailsTo(owner)).toHaveLength(1);
    expect(mailsTo(editor)).toHaveLength(1);
    expect(mailsTo(inApp)).toHaveLength(0);
    expect(mailsTo(viewer)).toHaveLength(0);

    const mail = mailsTo(owner)[0] as RawMail;
    expect(header(mail, 'Subject')).toBe('20 new comments on Client Mix – Version 1');
    expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const url = unsubscribeUrl(mail);
    const publicUrl = app.deps.config.publicUrl;
    expect(`${url.origin}${url.pathname}`).toBe(`${publicUrl}/api/notifications/unsubscribe`);
    const text = body(mail);
    const page = `${publicUrl}/projects/${project.id}/branches/${branch.id}/versions/${version.id}`;
    for (let i = 0; i < 20; i++) expect(text).toContain(`${page}?t=${60 + i}`);
    expect(text).toContain('Maya commented at 1:00 on Version 1');
    expect(text).toMatch(/\d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC · Maya commented at 1:19/);
    expect(text).toContain(
      `You get this because you are a member of Client Mix on Takes. Unsubscribe: ${url.href}`,
    );
    // Recorded: the batch as sent, its notifications as emailed.
    const records = await db.selectFrom('notification_emails').selectAll().execute();
    expect(records.map((r) => r.user_id).sort()).toEqual([owner.id, editor.id].sort());
    expect(records.every((r) => r.sent_at !== null)).toBe(true);
    const waiting = await db
      .selectFrom('notifications')
      .select('id')
      .where('email', '=', 1)
      .where('emailed_at', 'is', null)
      .execute();
    expect(waiting).toEqual([]);
  });

  it('the unsubscribe link and the one-click POST work without a session, for their own recipient and kinds only', async () => {
    const { app, db, owner, project, visitorComment, batchJobs } = await start();
    const editor = await buildMember(db, { projectId: project.id }, 'editor');
    const pickyMember = await buildMember(db, { projectId: project.id }, 'commenter');
    await client(app, owner.cookie).call(api.updateNotificationPreferences, {
      body: {
        comments: 'email_and_in_app',
        versions: 'email_and_in_app',
        membership: 'in_app',
        processing: 'in_app',
      },
    });
    await client(app, pickyMember.cookie).call(api.updateNotificationPreferences, {
      body: { comments: 'off', versions: 'in_app', membership: 'in_app', processing: 'in_app' },
    });
    await visitorComment(12);
    for (const job of await batchJobs()) await app.services.notifications.sendBatch(job);
    const ownerUrl = unsubscribeUrl(mailsTo(owner)[0] as RawMail);
    const editorUrl = unsubscribeUrl(mailsTo(editor)[0] as RawMail);
    const prefs = (user: BuiltUser) =>
      client(app, user.cookie).call(api.getNotificationPreferences, {});

    // The page (GET), no cookie: comments go to 'In-app only'; new versions stay as chosen.
    const page = await app.app.inject({
      method: 'GET',
      url: `${ownerUrl.pathname}${ownerUrl.search}`,
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('You will no longer get emails about comments and replies');
    expect(await prefs(owner)).toMatchObject({ comments: 'in_app', versions: 'email_and_in_app' });
    expect(await prefs(editor)).toMatchObject({ comments: 'email_and_in_app' });

    // One-click (RFC 8058), as a mail provider sends it: a form POST, no cookie, no Origin.
    const oneClick = await app.app.inject({
      method: 'POST',
      url: `${editorUrl.pathname}${editorUrl.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(204);
    expect(await prefs(editor)).toMatchObject({ comments: 'in_app' });

    // Unsubscribing never turns 'Off' into 'In-app only'.
    const pickyToken = app.services.notifications.unsubscribeToken(pickyMember.id, ['comments']);
    await app.app.inject({
      method: 'POST',
      url: `/api/notifications/unsubscribe?token=${encodeURIComponent(pickyToken)}`,
    });
    expect(await prefs(pickyMember)).toMatchObject({ comments: 'off' });

    // A token re-made for someone else, or for another kind, with the same signature: refused.
    const token = ownerUrl.searchParams.get('token') ?? '';
    const [, sig] = token.split('.');
    for (const forged of [
      `${Buffer.from(`${editor.id}|comments`).toString('base64url')}.${sig}`,
      `${Buffer.from(`${owner.id}|comments,versions`).toString('base64url')}.${sig}`,
      `${token}x`,
      'x'.repeat(40),
    ]) {
      for (const method of ['GET', 'POST'] as const) {
        const response = await app.app.inject({
          method,
          url: `/api/notifications/unsubscribe?token=${encodeURIComponent(forged)}`,
        });
        expect(response.statusCode, `${method} ${forged}`).toBe(410);
      }
    }
    expect(await prefs(owner)).toMatchObject({ versions: 'email_and_in_app' });
  });

  it('a notification that arrives while a batch is being sent gets a batch of its own', async () => {
    const { app, db, owner, visitorComment, batchJobs } = await start();
    await visitorComment(3);
    const [job] = await batchJobs();
    if (!job) throw new Error('no batch job');
    const activityId = (await db.selectFrom('activity').select('id').executeTakeFirstOrThrow()).id;
    // While the email is being sent, another event's transaction (which saw the batch's
    // notifications still waiting, so scheduled nothing) leaves one more waiting.
    const lateId = randomUUID();
    const racing: Mailer = {
      kind: 'smtp',
      send: async () => {
        await db
          .insertInto('notifications')
          .values({
            id: lateId,
            user_id: owner.id,
            activity_id: activityId,
            category: 'comments',
            email: 1,
            read_at: null,
            emailed_at: null,
            created_at: new Date().toISOString(),
          })
          .execute();
      },
      close: () => {},
    };
    const service = new NotificationsService({
      repo: new NotificationsRepo(db),
      clock: app.deps.clock,
      jobs: app.deps.jobs,
      mailer: racing,
      secret: app.deps.secretKey,
      publicUrl: app.deps.config.publicUrl,
      batchSeconds: 600,
    });
    expect(await service.sendBatch(job)).toBe('sent');
    const next = (await batchJobs()).filter((j) => j.batchId !== job.batchId);
    expect(next).toEqual([{ userId: owner.id, batchId: `${owner.id}:${lateId}` }]);
    // That batch sends the late one (through the real mailer); an empty one sends nothing.
    expect(await app.services.notifications.sendBatch(next[0] as (typeof next)[0])).toBe('sent');
    await smtp.waitFor(owner.email);
    expect(mailsTo(owner)).toHaveLength(1);
    expect(await app.services.notifications.sendBatch({ userId: owner.id, batchId: 'empty' })).toBe(
      'nothing',
    );
    expect(
      await db.selectFrom('notification_emails').select('id').where('id', '=', 'empty').execute(),
    ).toEqual([]);
  });

  it("a 'Try demo' account (no mailbox) is never emailed; its notifications stay in-app", async () => {
    const { app, db, project, visitorComment, batchJobs } = await start();
    const demo = await buildMember(db, { projectId: project.id }, 'commenter', {
      email: `${randomUUID().replace(/-/g, '')}@demo.takes.invalid`,
    });
    await visitorComment(9);
    const job = (await batchJobs()).find((j) => j.userId === demo.id);
    if (!job) throw new Error('no batch job');
    expect(await app.services.notifications.sendBatch(job)).toBe('nothing');
    const mine = await db
      .selectFrom('notifications')
      .select(['emailed_at', 'read_at'])
      .where('user_id', '=', demo.id)
      .execute();
    expect(mine).toHaveLength(1);
    expect(mine[0]?.emailed_at).not.toBeNull();
    expect(mine[0]?.read_at).toBeNull();
    expect(mailsTo(demo)).toHaveLength(0);
  });

  it('a worker killed after sending and before recording sends nothing twice on retry', async () => {
    const { app, db, owner, visitorComment, batchJobs } = await start();
    const service = app.services.notifications;
    await visitorComment(5);
    const [job] = await batchJobs();
    if (!job) throw new Error('no batch job');

    // The first run claims the batch and sends; the worker dies before recording it as sent.
    const claimed = await service.claimBatch(job);
    if (typeof claimed === 'string') throw new Error(`not claimed: ${claimed}`);
    await app.deps.mailer.send(claimed.message);
    await smtp.waitFor(owner.email);
    const record = await db.selectFrom('notification_emails').selectAll().executeTakeFirstOrThrow();
    expect(record).toMatchObject({ id: job.batchId, user_id: owner.id, sent_at: null });

    // The job runs again after its lease: the claim says it may have been sent; nothing is sent.
    expect(await service.sendBatch(job)).toBe('already');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(owner)).toHaveLength(1);
  });

  it('a send the mail server refused is released and sent once by the retry; a finished batch is never sent again', async () => {
    const { app, db, owner, visitorComment, batchJobs } = await start();
    await visitorComment(7);
    const [job] = await batchJobs();
    if (!job) throw new Error('no batch job');
    const refusing: Mailer = {
      kind: 'smtp',
      send: () => Promise.reject(new Error('451 try again later')),
      close: () => {},
    };
    const failing = new NotificationsService({
      repo: new NotificationsRepo(db),
      clock: app.deps.clock,
      jobs: app.deps.jobs,
      mailer: refusing,
      secret: app.deps.secretKey,
      publicUrl: app.deps.config.publicUrl,
      batchSeconds: 600,
    });
    await expect(failing.sendBatch(job)).rejects.toThrow('451');
    expect(await db.selectFrom('notification_emails').selectAll().execute()).toEqual([]);

    const service = app.services.notifications;
    expect(await service.sendBatch(job)).toBe('sent');
    expect(await service.sendBatch(job)).toBe('already');
    await smtp.waitFor(owner.email);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(owner)).toHaveLength(1);
    expect(body(mailsTo(owner)[0] as RawMail)).toContain('Maya commented at 0:07 on Version 1');
  });
});
