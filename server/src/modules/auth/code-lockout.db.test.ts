import { describe, expect, it } from 'vitest';
import { ORIGIN } from '../../../test/api';
import { mailAppSuite } from '../../../test/mail-app';
import { codeFrom, linkTokenFrom } from '../../../test/smtp';
import { type TestClock, type TestApp } from '../../../test/test-app';

const { smtp, uniqueEmail, start: startMailApp } = mailAppSuite('lockout');
const HOUR = 60 * 60 * 1000;
const NOTICE_SUBJECT = 'Someone tried to sign in to your Takes account';
const locked = (duration: string) => ({
  error: `Too many wrong codes for this email address. Signing in with a code is locked for ${duration}; you can still use the link in a new sign-in email.`,
  code: 'rate_limited',
});

/** The 6-digit code cannot be guessed slowly forever: a daily budget that resends do not reset. */
describe('the daily budget of wrong codes per address', () => {
  let t: TestApp;
  let clock: TestClock;
  async function start() {
    ({ t, clock } = await startMailApp());
  }

  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, payload, headers: { origin: ORIGIN } });

  const sentTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));
  const codeMails = (email: string) =>
    sentTo(email).filter((m) => !m.text.includes(NOTICE_SUBJECT));
  const notices = (email: string) => sentTo(email).filter((m) => m.text.includes(NOTICE_SUBJECT));

  /** A fresh code (a minute after the last send, as the send limit wants). */
  async function send(email: string) {
    clock.advance(61_000);
    const before = codeMails(email).length;
    const sent = await post('/api/auth/magic-code/send', { email });
    expect(sent.statusCode, sent.body).toBe(200);
    await expect.poll(() => codeMails(email).length).toBe(before + 1);
    const newest = codeMails(email)[before];
    if (!newest) throw new Error(`no code email to ${email}`);
    return { code: codeFrom(newest), token: linkTokenFrom(newest) };
  }

  /**
   * `count` wrong codes, resending after every 4th (the 5th would void the code): the most
   * an attacker gets from resends. Answers the last response.
   */
  async function wrongCodes(email: string, count: number) {
    let last;
    let code = '';
    for (let i = 0; i < count; i++) {
      if (i % 4 === 0) code = (await send(email)).code;
      last = await post('/api/auth/magic-code/verify', {
        email,
        code: code === '000000' ? '111111' : '000000',
      });
      if (i < count - 1) expect(last.statusCode, last.body).toBe(400);
    }
    return last;
  }

  it('locks code sign-in for an hour at the 10th wrong code of the day, whatever the resends, and tells the owner', async () => {
    await start();
    const email = uniqueEmail();
    const tenth = await wrongCodes(email, 10);
    expect(tenth?.statusCode).toBe(429);
    expect(tenth?.json()).toEqual(locked('1 hour'));

    // The owner is told, without any code in the message.
    await expect.poll(() => notices(email).length).toBe(1);
    const notice = notices(email)[0]?.text ?? '';
    expect(notice).toContain('with 10 wrong sign-in codes');
    expect(notice).toContain('locked for 1 hour');
    expect(notice).not.toContain('sign-in code:');
    for (const mail of codeMails(email)) expect(notice).not.toContain(codeFrom(mail));

    // Locked: even the right code of a new email is refused...
    const fresh = await send(email);
    const right = await post('/api/auth/magic-code/verify', { email, code: fresh.code });
    expect(right.statusCode).toBe(429);
    expect(right.json<{ error: string }>().error).toMatch(/locked for \d+ minutes/);
    // ...but the owner still gets in with the link, which only the mailbox has.
    const viaLink = await post('/api/auth/magic-code/link', { token: fresh.token });
    expect(viaLink.statusCode, viaLink.body).toBe(200);

    // An hour later, codes work again.
    clock.advance(HOUR);
    const after = await send(email);
    expect(
      (await post('/api/auth/magic-code/verify', { email, code: after.code })).statusCode,
    ).toBe(200);
    expect(notices(email)).toHaveLength(1);
  });

  it('locks for 1 h, then 6 h, then 24 h when the guessing goes on', async () => {
    await start();
    const email = uniqueEmail();
    expect((await wrongCodes(email, 10))?.json()).toEqual(locked('1 hour'));
    clock.advance(HOUR);
    expect((await wrongCodes(email, 10))?.json()).toEqual(locked('6 hours'));
    clock.advance(5 * HOUR);
    // Still locked five hours into the six.
    const during = await post('/api/auth/magic-code/verify', { email, code: '123456' });
    expect(during.statusCode).toBe(429);
    clock.advance(HOUR);
    expect((await wrongCodes(email, 10))?.json()).toEqual(locked('24 hours'));
    clock.advance(24 * HOUR);
    expect((await wrongCodes(email, 10))?.json()).toEqual(locked('24 hours'));
    await expect.poll(() => notices(email).length).toBe(4);
  });

  it('forgets the day: nine wrong codes a day never lock, and a week later the lock-out starts at 1 h again', async () => {
    await start();
    const email = uniqueEmail();
    for (let day = 0; day < 2; day++) {
      const ninth = await wrongCodes(email, 9);
      expect(ninth?.statusCode).toBe(400);
      clock.advance(24 * HOUR);
    }
    expect((await wrongCodes(email, 10))?.json()).toEqual(locked('1 hour'));
    clock.advance(8 * 24 * HOUR);
    expect((await wrongCodes(email, 10))?.json()).toEqual(locked('1 hour'));
  });

  it('keeps each address to its own budget', async () => {
    await start();
    const attacked = uniqueEmail();
    const bystander = uniqueEmail();
    expect((await wrongCodes(attacked, 10))?.statusCode).toBe(429);
    const { code } = await send(bystander);
    expect((await post('/api/auth/magic-code/verify', { email: bystander, code })).statusCode).toBe(
      200,
    );
  });
});
