import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { SmtpMailer } from '../src/mail/mailer';
import { startTestSmtp, type ReceivedMail, type TestSmtp } from './smtp';
import { ORIGIN } from './api';
import {
  cookiesFrom,
  createTestApp,
  TestClock,
  type TestApp,
  type TestAppOptions,
} from './test-app';

export interface MailApp {
  t: TestApp;
  clock: TestClock;
}

/**
 * For a test file about emailed sign-in: one real SMTP catcher for the file, and apps that
 * send their mail to it on a clock the test moves. Call once at the top of the file; each
 * app `start` makes is closed after its test.
 */
export function mailAppSuite(emailPrefix: string) {
  let server: TestSmtp | undefined;
  let current: TestApp | undefined;
  let counter = 0;
  beforeAll(async () => {
    server = await startTestSmtp();
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const running = (): TestSmtp => {
    if (!server) throw new Error('The SMTP catcher starts in beforeAll');
    return server;
  };
  /** The file's catcher (usable once beforeAll has run). */
  const smtp = {
    get url(): string {
      return running().url;
    },
    get messages(): ReceivedMail[] {
      return running().messages;
    },
    waitFor: (to: string, count?: number) => running().waitFor(to, count),
  };
  return {
    smtp,
    /** An address no other test (or earlier run on the same database) has used. */
    uniqueEmail: () => `${emailPrefix}${Date.now()}${++counter}@example.com`,
    /** A fresh app mailing through the catcher, with its own TestClock. */
    start: async (options: TestAppOptions = {}): Promise<MailApp> => {
      const clock = new TestClock();
      const t = await createTestApp({
        clock,
        mailer: new SmtpMailer(running().url, 'Takes <no-reply@takes.test>'),
        ...options,
      });
      current = t;
      return { t, clock };
    },
  };
}

/**
 * The requests sign-in tests make, as the web app sends them (with its Origin): a POST, a
 * new account by email and password, and the session a cookie holds. `app` is read at call time.
 */
export function authRequests(app: () => TestApp, uniqueEmail: () => string) {
  function post(url: string, payload: object, headers: Record<string, string> = {}) {
    return app().app.inject({
      method: 'POST',
      url,
      payload,
      headers: { origin: ORIGIN, ...headers },
    });
  }

  async function signUp(email = uniqueEmail(), password = 'violet-mixdown-47') {
    const response = await post('/api/auth/sign-up/email', { email, password });
    expect(response.statusCode, response.body).toBe(200);
    return { email, password, cookie: cookiesFrom(response.headers['set-cookie']), response };
  }

  function session(cookie: string) {
    return app().app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
  }

  return { post, signUp, session };
}
