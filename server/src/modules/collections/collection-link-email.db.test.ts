import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTION_LINK_MESSAGES, EMAILS_PER_HOUR, type CollectionLink } from '@takes/contract';
import { eventually } from '../../../test/api';
import { collectionWorld, shareCollection } from '../../../test/collection-world';
import { mailAppSuite } from '../../../test/mail-app';

/** 'Add recipients' with 'Email each recipient their link', through a real SMTP server. */
describe('collection links emailed to recipients', () => {
  const suite = mailAppSuite('cl-email-');
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-collection-email-'));
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends each recipient with an address their own link, and says which were emailed', async () => {
    const { t } = await suite.start();
    const w = await collectionWorld(t, dir);
    const ana = suite.uniqueEmail();
    const ben = suite.uniqueEmail();
    const made = await shareCollection(w.as, w.collection.id, {
      name: 'EP pitch',
      password: 'correct horse',
      expires_at: '2099-01-01T00:00:00.000Z',
      email_recipients: true,
      recipients: [{ name: 'Ana', email: ana }, { name: 'Ben', email: ben }, { name: 'Cy' }],
    });
    expect(made.map((link) => link.emailed)).toEqual([true, true, false]);
    const anaMail = await suite.smtp.waitFor(ana);
    const benMail = await suite.smtp.waitFor(ben);
    expect(anaMail.text).toContain('Hi Ana,');
    expect(anaMail.text).toContain('Mia shared "For the label" with you on Takes.');
    expect(anaMail.text).toContain(`/share/${made[0]?.key}`);
    expect(anaMail.text).not.toContain(made[1]?.key ?? 'none');
    expect(benMail.text).toContain(`/share/${made[1]?.key}`);
    // The password is never sent, only that it is needed.
    expect(anaMail.text).toContain('The link needs a password: Mia will give it to you.');
    expect(anaMail.text).not.toContain('correct horse');
    // (nodemailer writes the subject as an encoded word: the spaces come out as underscores)
    expect(anaMail.text).toMatch(/^Subject: .*Mia.shared.+For.the.label.+with.you/m);
    const listed = (await w.as.get(`/api/collections/${w.collection.id}/links`)).json<{
      links: CollectionLink[];
    }>().links;
    expect(
      listed
        .filter((link) => link.emailed)
        .map((link) => link.recipient?.name)
        .sort(),
    ).toEqual(['Ana', 'Ben']);
  });

  it('sends nothing unless asked', async () => {
    const { t } = await suite.start();
    const w = await collectionWorld(t, dir);
    const before = suite.smtp.messages.length;
    const made = await shareCollection(w.as, w.collection.id, {
      name: 'Quiet',
      recipients: [{ name: 'Dee', email: suite.uniqueEmail() }],
    });
    expect(made[0]?.emailed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(suite.smtp.messages.length).toBe(before);
  });

  it('shares one mail budget with invitations: requests sent at once never mail more than 20 an hour', async () => {
    const { t } = await suite.start();
    const w = await collectionWorld(t, dir);
    const db = t.deps.database.db;
    const recipients = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ name: `R${i}`, email: suite.uniqueEmail() }));
    const sentBefore = suite.smtp.messages.length;
    // 3 × 8 emailed links and 4 invitations: 28 emails asked for at once, 20 allowed.
    const [linkAnswers, inviteAnswers] = await Promise.all([
      Promise.all(
        [0, 1, 2].map(() =>
          w.as.post(`/api/collections/${w.collection.id}/links`, {
            name: 'Pitch',
            email_recipients: true,
            recipients: recipients(8),
          }),
        ),
      ),
      Promise.all(
        [0, 1, 2, 3].map(() =>
          w.as.post(`/api/projects/${w.mine.project.id}/invitations`, {
            email: suite.uniqueEmail(),
            role: 'viewer',
          }),
        ),
      ),
    ]);
    const linksMade = linkAnswers.filter((answer) => answer.statusCode === 201).length;
    const invitesSent = inviteAnswers.filter((answer) => answer.statusCode === 201).length;
    for (const answer of [...linkAnswers, ...inviteAnswers])
      expect([201, 429], answer.body).toContain(answer.statusCode);
    for (const refused of linkAnswers.filter((answer) => answer.statusCode === 429)) {
      expect(refused.json()).toEqual({
        error: COLLECTION_LINK_MESSAGES.tooManyEmails,
        code: 'rate_limited',
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(linksMade * 8 + invitesSent).toBeLessThanOrEqual(EMAILS_PER_HOUR);
    expect(linksMade).toBeGreaterThan(0);
    expect(linksMade).toBeLessThan(3);
    // A refused request made no link: every link there is belongs to a request that was let through.
    const rows = await db
      .selectFrom('collection_links')
      .select('id')
      .where('collection_id', '=', w.collection.id)
      .execute();
    expect(rows).toHaveLength(linksMade * 8);
    const sent = () => suite.smtp.messages.length - sentBefore;
    await eventually(() => sent() >= linksMade * 8 + invitesSent, 10_000);
    expect(sent()).toBe(linksMade * 8 + invitesSent);
    // The budget is spent: one more emailed link is refused, one without email is still made.
    const more = await w.as.post(`/api/collections/${w.collection.id}/links`, {
      name: 'One more',
      email_recipients: true,
      recipients: recipients(EMAILS_PER_HOUR - linksMade * 8 - invitesSent + 1),
    });
    expect(more.statusCode, more.body).toBe(429);
    await shareCollection(w.as, w.collection.id, {
      name: 'Copied by hand',
      recipients: recipients(2),
    });
  });

  it("keeps people's words from posing as links in the email", async () => {
    const { t } = await suite.start();
    const w = await collectionWorld(t, dir);
    const renamed = await w.as.patch(`/api/collections/${w.collection.id}`, {
      name: 'Log in at https://evil.example/takes',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const to = suite.uniqueEmail();
    await shareCollection(w.as, w.collection.id, {
      name: 'Pitch',
      email_recipients: true,
      recipients: [{ name: 'Ana, see www.phish.example', email: to }],
    });
    const mail = await suite.smtp.waitFor(to);
    expect(mail.text).toContain('Hi Ana, see www[.]phish[.]example,');
    expect(mail.text).toContain('shared "Log in at https[:]//evil[.]example/takes" with you');
    expect(mail.text).not.toMatch(/evil\.example|phish\.example/);
  });
});
