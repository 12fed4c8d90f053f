import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage } from '@takes/contract';
import { api, ORIGIN } from '../../../test/api';
import { buildMember, buildProject, buildRepo, buildUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import type { MailMessage, Mailer } from '../../mail/mailer';
import { TickingClock } from './testing';

/** Keeps every email the app sends. */
class CapturingMailer implements Mailer {
  readonly kind = 'log' as const;
  readonly sent: MailMessage[] = [];
  send(message: MailMessage): Promise<void> {
    this.sent.push(message);
    return Promise.resolve();
  }
  close(): void {}
}

/**
 * The member list hides pending invitations from everyone but the owner; the Activity feed does
 * too: whoever may manage the members reads the address, the others "invited someone as Editor".
 */
describe('activity: the address of an invitation', () => {
  let t: TestApp;
  let mailer: CapturingMailer;
  beforeAll(async () => {
    mailer = new CapturingMailer();
    t = await createTestApp({ clock: new TickingClock(), mailer });
  });
  afterAll(() => t.close());

  async function feed(cookie: string, url: string) {
    const res = await api(t, cookie).get(`${url}?limit=100`);
    expect(res.statusCode, res.body).toBe(200);
    return { body: res.body, lines: res.json<ActivityPage>().items.map((i) => i.summary) };
  }

  for (const kind of ['project', 'repository'] as const) {
    it(`shows a ${kind}'s invited address to the owner only`, async () => {
      const db = t.deps.database.db;
      const olivia = await buildUser(db, { name: 'Olivia' });
      const place =
        kind === 'project'
          ? { projectId: (await buildProject(db, olivia.id)).project.id }
          : { repoId: (await buildRepo(db, olivia.id)).id };
      const base =
        'projectId' in place ? `/api/projects/${place.projectId}` : `/api/repos/${place.repoId}`;
      const activity = `${base}/activity`;
      const editor = await buildMember(db, place, 'editor', { name: 'Eddie' });
      const commenter = await buildMember(db, place, 'commenter', { name: 'Cam' });
      const viewer = await buildMember(db, place, 'viewer', { name: 'Vee' });
      const address = `secret-collab${Date.now()}@label.example`;
      const sentBefore = mailer.sent.length;

      const invited = await t.app.inject({
        method: 'POST',
        url: `${base}/invitations`,
        payload: { email: address, role: 'editor' },
        headers: { cookie: olivia.cookie, origin: ORIGIN },
      });
      expect(invited.statusCode, invited.body).toBe(201);

      expect((await feed(olivia.cookie, activity)).lines[0]).toBe(
        `Olivia invited ${address} as Editor`,
      );
      for (const member of [editor, commenter, viewer]) {
        const seen = await feed(member.cookie, activity);
        expect(seen.lines[0]).toBe('Olivia invited someone as Editor');
        expect(seen.body).not.toContain(address);
        // Nor the bell (an invitation notifies nobody; nothing there names the address).
        const bell = await api(t, member.cookie).get('/api/notifications?limit=100');
        expect(bell.statusCode, bell.body).toBe(200);
        expect(bell.body).not.toContain(address);
      }
      // The only email naming the address is the invitation itself, to that address.
      const mentions = mailer.sent
        .slice(sentBefore)
        .filter((m) => `${m.subject}\n${m.text}`.includes(address) || m.to === address);
      expect(mentions.map((m) => m.to)).toEqual([address]);
    });
  }
});
