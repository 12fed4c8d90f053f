import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionLink } from '@takes/contract';
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
      expiresAt: '2099-01-01T00:00:00.000Z',
      emailRecipients: true,
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
});
