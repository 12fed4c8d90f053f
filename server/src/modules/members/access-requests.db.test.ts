import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_REQUEST_MESSAGES,
  type AccessRequest,
  type ActivityPage,
  type NotificationsPage,
} from '@takes/contract';
import { SmtpMailer } from '../../mail/mailer';
import { api, ORIGIN } from '../../../test/api';
import {
  addMember,
  buildCollection,
  buildCollectionItem,
  buildCollectionLink,
  buildProject,
  buildUser,
  buildVersion,
  depsOf,
} from '../../../test/factories';
import { createTestApp, TestClock, type TestApp } from '../../../test/test-app';
import { header, startRawSmtp } from '../notifications/testing';

/** A share link of a new version of Olga's 'Night Drive', straight into the table. */
async function sharedProject(t: TestApp, name = 'Night Drive') {
  const db = t.deps.database.db;
  const owner = await buildUser(db, { name: 'Olga' });
  const { project, branch } = await buildProject(db, owner.id, { name });
  const version = await buildVersion(depsOf(t), { projectId: project.id, branchId: branch.id });
  const hash = randomUUID().replaceAll('-', '').slice(0, 22);
  const linkId = randomUUID();
  await db
    .insertInto('links')
    .values({
      id: linkId,
      hash,
      version_id: version.id,
      project_id: project.id,
      owner_id: owner.id,
      name: 'Label',
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
  return { owner, project, version, hash, linkId };
}

/**
 * 'Request access' (issue 47): a signed-in listener of a share link who is no member asks the
 * project's owner, who is notified and grants a role (Viewer by default) or declines. One open
 * request per person per project; a declined person may ask again after 7 days.
 */
describe('access requests', () => {
  let t: TestApp;
  const clock = new TestClock();
  const db = () => t.deps.database.db;
  beforeAll(async () => {
    t = await createTestApp({ clock });
  });
  afterAll(() => t?.close());

  const ask = (cookie: string, hash: string, body: object = {}) =>
    api(t, cookie).post(`/api/links/hash/${hash}/access-requests`, body);
  const requestsOf = async (cookie: string, projectId: string) =>
    (await api(t, cookie).get(`/api/projects/${projectId}/access-requests`)).json<{
      requests: AccessRequest[];
    }>().requests;

  it('notifies the owner alone, who grants Commenter; the join is in Activity', async () => {
    const { owner, project, hash } = await sharedProject(t);
    const editor = await buildUser(db());
    await addMember(db(), { projectId: project.id }, editor.id, 'editor');
    const maya = await buildUser(db(), { name: 'Maya' });

    const sent = await ask(maya.cookie, hash, { note: '  I play bass on this.  ' });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ project_name: 'Night Drive' });

    const bell = await api(t, owner.cookie).get('/api/notifications');
    const first = bell.json<NotificationsPage>().items[0];
    expect(first?.activity.summary).toBe('Maya asked to join Night Drive');
    expect(first?.activity.href).toBe(`/projects/${project.id}?members=requests`);
    const editorBell = await api(t, editor.cookie).get('/api/notifications');
    expect(editorBell.json<NotificationsPage>().items).toEqual([]);

    const [request] = await requestsOf(owner.cookie, project.id);
    expect(request).toMatchObject({ user_id: maya.id, name: 'Maya', note: 'I play bass on this.' });
    // Only the owner sees or decides requests.
    expect(
      (await api(t, editor.cookie).get(`/api/projects/${project.id}/access-requests`)).statusCode,
    ).toBe(403);
    expect(
      (await api(t, maya.cookie).get(`/api/projects/${project.id}/access-requests`)).statusCode,
    ).toBe(404);
    const grantUrl = `/api/access-requests/${request?.id}/grant`;
    expect((await api(t, editor.cookie).post(grantUrl, { role: 'editor' })).statusCode).toBe(403);
    expect((await api(t, maya.cookie).post(grantUrl, { role: 'editor' })).statusCode).toBe(404);

    const granted = await api(t, owner.cookie).post(grantUrl, { role: 'commenter' });
    expect(granted.statusCode, granted.body).toBe(200);
    expect(await t.services.access.projectRole(maya.id, project.id)).toBe('commenter');
    expect(await requestsOf(owner.cookie, project.id)).toEqual([]);
    expect((await api(t, owner.cookie).post(grantUrl, {})).statusCode).toBe(404);
    const activity = await api(t, owner.cookie).get(`/api/projects/${project.id}/activity`);
    expect(activity.json<ActivityPage>().items[0]?.summary).toBe('Maya joined as Commenter');
    // Now a member, asking again is refused.
    const again = await ask(maya.cookie, hash);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ error: string }>().error).toBe(ACCESS_REQUEST_MESSAGES.alreadyMember);
  });

  it('grants Viewer unless the owner picks another role', async () => {
    const { owner, project, hash } = await sharedProject(t);
    const maya = await buildUser(db());
    expect((await ask(maya.cookie, hash)).statusCode).toBe(201);
    const [request] = await requestsOf(owner.cookie, project.id);
    const granted = await api(t, owner.cookie).post(
      `/api/access-requests/${request?.id}/grant`,
      {},
    );
    expect(granted.json()).toEqual({ user_id: maya.id, role: 'viewer' });
    expect(await t.services.access.projectRole(maya.id, project.id)).toBe('viewer');
  });

  it('keeps one open request per person per project, even when asked at once', async () => {
    const { owner, project, hash } = await sharedProject(t);
    const maya = await buildUser(db());
    const answers = await Promise.all([ask(maya.cookie, hash), ask(maya.cookie, hash)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const second = await ask(maya.cookie, hash);
    expect(second.statusCode).toBe(409);
    expect(second.json<{ error: string }>().error).toBe(ACCESS_REQUEST_MESSAGES.alreadyOpen);
    expect(await requestsOf(owner.cookie, project.id)).toHaveLength(1);
  });

  it('after a decline, may be asked again only after 7 days', async () => {
    const { owner, project, hash } = await sharedProject(t);
    const maya = await buildUser(db());
    await ask(maya.cookie, hash);
    const [request] = await requestsOf(owner.cookie, project.id);
    const declineUrl = `/api/access-requests/${request?.id}/decline`;
    const declined = await api(t, owner.cookie).post(declineUrl);
    expect(declined.statusCode).toBe(204);
    expect((await api(t, owner.cookie).post(declineUrl)).statusCode).toBe(404);
    expect(await t.services.access.projectRole(maya.id, project.id)).toBeNull();

    const soon = await ask(maya.cookie, hash);
    expect(soon.statusCode).toBe(409);
    expect(soon.json<{ error: string }>().error).toMatch(
      /^The owner declined your request\. You can ask again after \d{1,2} \w{3} \d{4}\.$/,
    );
    const week = 7 * 86_400_000 + 60_000;
    clock.advance(week);
    try {
      expect((await ask(maya.cookie, hash)).statusCode).toBe(201);
    } finally {
      clock.advance(-week);
    }
  });

  it('opens the link as listening does: unknown or revoked 404, signed out 401, a long note 400', async () => {
    const { hash, linkId } = await sharedProject(t);
    const maya = await buildUser(db());
    const signedOut = await t.app.inject({
      method: 'POST',
      url: `/api/links/hash/${hash}/access-requests`,
      payload: {},
      headers: { origin: ORIGIN },
    });
    expect(signedOut.statusCode).toBe(401);
    expect((await ask(maya.cookie, 'wrongkey0000000000000')).statusCode).toBe(404);
    const long = await ask(maya.cookie, hash, { note: 'x'.repeat(501) });
    expect(long.statusCode).toBe(400);
    expect(long.json<{ error: string }>().error).toContain(ACCESS_REQUEST_MESSAGES.noteTooLong);
    await db()
      .updateTable('links')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', linkId)
      .execute();
    expect((await ask(maya.cookie, hash)).statusCode).toBe(404);
  });

  it('from a collection link asks for the project of the item being heard', async () => {
    const { owner, project, version } = await sharedProject(t, 'Side A');
    const collection = await buildCollection(db(), owner.id);
    const item = await buildCollectionItem(db(), collection, { version_id: version.id });
    const link = await buildCollectionLink(db(), collection.id);
    const maya = await buildUser(db(), { name: 'Maya' });
    const url = `/api/collection-links/${link.hash}/access-requests`;

    expect((await api(t, maya.cookie).post(url, { item_id: randomUUID() })).statusCode).toBe(404);
    const sent = await api(t, maya.cookie).post(url, { item_id: item.id, note: 'Hi' });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ project_name: 'Side A' });
    expect((await requestsOf(owner.cookie, project.id)).map((r) => r.user_id)).toEqual([maya.id]);
  });
});

describe('an access request emails the owner', () => {
  let smtp: Awaited<ReturnType<typeof startRawSmtp>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startRawSmtp();
    t = await createTestApp({
      mailer: new SmtpMailer(smtp.url, 'Takes <no-reply@takes.test>'),
      env: { NOTIFICATION_BATCH_SECONDS: '1' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it("with 'Maya asked to join Night Drive', though membership news is in-app only by default", async () => {
    const { owner, hash } = await sharedProject(t);
    const maya = await buildUser(t.deps.database.db, { name: 'Maya' });
    expect(
      (await api(t, maya.cookie).post(`/api/links/hash/${hash}/access-requests`, {})).statusCode,
    ).toBe(201);
    await t.deps.jobs.startWorking();
    await smtp.waitFor(owner.email);
    const mail = smtp.messages.find((m) => m.to.includes(owner.email));
    expect(mail && header(mail, 'Subject')).toBe('Maya asked to join Night Drive');
    expect(smtp.messages.some((m) => m.to.includes(maya.email))).toBe(false);
  });
});
