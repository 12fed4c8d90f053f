import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage } from '@takes/contract';
import { api, ORIGIN } from '../../../test/api';
import { buildMember, buildProject, buildRepo, buildUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import type { MailMessage, Mailer } from '../../mail/mailer';
import { TickingClock } from './testing';

/** Keeps every email the app sends; can be made to fail. */
class CapturingMailer implements Mailer {
  readonly kind = 'log' as const;
  readonly sent: MailMessage[] = [];
  failing = false;
  send(message: MailMessage): Promise<void> {
    if (this.failing) return Promise.reject(new Error('SMTP is down'));
    this.sent.push(message);
    return Promise.resolve();
  }
  close(): void {}
}

function tokenFrom(text: string): string {
  const match = /\/invite\/([\w-]+)/.exec(text);
  if (!match?.[1]) throw new Error('no invitation link in the email');
  return match[1];
}

describe('activity: membership of projects and repositories', () => {
  let t: TestApp;
  let mailer: CapturingMailer;
  beforeAll(async () => {
    mailer = new CapturingMailer();
    t = await createTestApp({ clock: new TickingClock(), mailer });
  });
  afterAll(() => t.close());

  const post = (cookie: string, url: string, payload: object = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers: { cookie, origin: ORIGIN } });

  async function inviteAndAccept(ownerCookie: string, base: string, email: string, name: string) {
    const invited = await post(ownerCookie, `${base}/invitations`, { email, role: 'editor' });
    expect(invited.statusCode, invited.body).toBe(201);
    const token = tokenFrom(mailer.sent[mailer.sent.length - 1]?.text ?? '');
    const guest = await buildUser(t.deps.database.db, { name, email });
    const accepted = await post(guest.cookie, '/api/invitations/accept', { token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    return guest;
  }

  async function lines(cookie: string, url: string) {
    const res = await api(t, cookie).get(`${url}?limit=100`);
    expect(res.statusCode, res.body).toBe(200);
    return res
      .json<ActivityPage>()
      .items.map((i) => [i.kind, i.summary, i.href])
      .reverse();
  }

  it('records invited, joined, role changed, removed and left on a project, once each', async () => {
    const db = t.deps.database.db;
    const olivia = await buildUser(db, { name: 'Olivia' });
    const { project } = await buildProject(db, olivia.id);
    const base = `/api/projects/${project.id}`;
    const leo = await inviteAndAccept(olivia.cookie, base, `leo${Date.now()}@example.com`, 'Leo');
    const as = api(t, olivia.cookie);
    expect((await as.patch(`${base}/members/${leo.id}`, { role: 'commenter' })).statusCode).toBe(
      200,
    );
    // The same role again changes nothing.
    expect((await as.patch(`${base}/members/${leo.id}`, { role: 'commenter' })).statusCode).toBe(
      200,
    );
    expect((await as.delete(`${base}/members/${leo.id}`)).statusCode).toBe(204);
    expect((await as.delete(`${base}/members/${leo.id}`)).statusCode).toBe(404);
    const sam = await buildMember(db, { projectId: project.id }, 'viewer', { name: 'Sam' });
    // A Viewer may not remove anyone (403): nothing recorded.
    expect((await api(t, sam.cookie).delete(`${base}/members/${olivia.id}`)).statusCode).toBe(403);
    expect((await post(sam.cookie, `${base}/leave`)).statusCode).toBe(204);

    // An invitation whose email cannot be sent is not made, and not recorded.
    mailer.failing = true;
    const unsent = await post(olivia.cookie, `${base}/invitations`, {
      email: 'nobody@example.com',
      role: 'viewer',
    });
    mailer.failing = false;
    expect(unsent.statusCode).toBeGreaterThanOrEqual(500);

    const p = `/projects/${project.id}`;
    const [invited, ...rest] = await lines(olivia.cookie, `/api/projects/${project.id}/activity`);
    expect(invited?.[0]).toBe('member.invited');
    expect(invited?.[1]).toMatch(/^Olivia invited leo\d+@example\.com as Editor$/);
    expect(rest).toEqual([
      ['member.joined', 'Leo joined as Editor', p],
      ['member.role_changed', "Olivia changed Leo's role to Commenter", p],
      ['member.removed', 'Olivia removed Leo', p],
      ['member.left', 'Sam left', p],
    ]);
  });

  it('records the same on a repository, with repository links', async () => {
    const db = t.deps.database.db;
    const olivia = await buildUser(db, { name: 'Olivia' });
    const repo = await buildRepo(db, olivia.id);
    const base = `/api/repos/${repo.id}`;
    const leo = await inviteAndAccept(olivia.cookie, base, `leo${Date.now()}@example.com`, 'Leo');
    expect((await post(leo.cookie, `${base}/leave`)).statusCode).toBe(204);
    const r = `/repositories/${repo.id}`;
    const all = await lines(olivia.cookie, `${base}/activity`);
    expect(all.map(([kind, , href]) => [kind, href])).toEqual([
      ['member.invited', r],
      ['member.joined', r],
      ['member.left', r],
    ]);
    const stranger = await buildUser(db);
    expect((await api(t, stranger.cookie).get(`${base}/activity`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `${base}/activity` })).statusCode).toBe(401);
  });
});
