import { SIGNUP_MESSAGES, type SignupPolicyName } from '@takes/contract';
import { getGlobalDispatcher, MockAgent, setGlobalDispatcher, type Dispatcher } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDoors } from '../../../test/door-world';
import { buildProject, buildUser } from '../../../test/factories';
import {
  APPLE_ENV,
  GOOGLE_ENV,
  passwordSignUp,
  rowsFor,
  socialSignIn,
  viewInviteLink,
} from '../../../test/signup-paths';
import { cookiesFrom, createTestApp, TestClock, type TestApp } from '../../../test/test-app';
import { INVITE_LINK_PASS_COOKIE } from './invite-link-pass';

const NOTHING = { users: 0, accounts: 0, sessions: 0 };
let counter = 0;
const unique = (domain = 'gmail.example') => `social${Date.now()}${++counter}@${domain}`;

/**
 * Google's and Apple's token and key endpoints are intercepted (their servers cannot run here);
 * everything on our side is real, as in modules/auth/oauth.db.test.ts.
 */
describe('the sign-up policy on provider sign-ins and invite links', () => {
  let t: TestApp | undefined;
  let agent: MockAgent;
  let previous: Dispatcher;
  const clock = new TestClock();

  beforeEach(() => {
    previous = getGlobalDispatcher();
    agent = new MockAgent();
    agent.disableNetConnect();
    setGlobalDispatcher(agent);
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
    await agent.close();
    setGlobalDispatcher(previous);
  });

  async function app(policy: SignupPolicyName, env: Record<string, string> = {}) {
    t = await createTestApp({
      clock,
      env: { ...GOOGLE_ENV, ...APPLE_ENV, SIGNUPS: policy, ...env },
    });
    return t;
  }

  /** Where a refused provider sign-in lands: the sign-in page, with the policy's message. */
  function expectRefusedRedirect(location: unknown, message: string) {
    const url = new URL(String(location), 'http://localhost:8080');
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('error_description')).toBe(message);
  }

  describe.each(['google', 'apple'] as const)('%s', (provider) => {
    it('signs a newcomer up under open', async () => {
      const t = await app('open');
      const email = unique();
      const response = await socialSignIn(t, agent, provider, {
        sub: `${provider}-1`,
        email,
        email_verified: true,
      });
      expect(response.statusCode, response.body).toBe(302);
      expect(response.headers.location).toBe('/dashboard');
      expect(await rowsFor(t, email)).toEqual({ users: 1, accounts: 1, sessions: 1 });
    });

    it.each([
      ['invite-only', SIGNUP_MESSAGES.inviteOnly],
      ['closed', SIGNUP_MESSAGES.closed],
    ] as const)('refuses a newcomer under %s, leaving nothing written', async (policy, message) => {
      const t = await app(policy);
      const email = unique();
      const response = await socialSignIn(t, agent, provider, {
        sub: `${provider}-2`,
        email,
        email_verified: true,
      });
      expect(response.statusCode).toBe(302);
      expectRefusedRedirect(response.headers.location, message);
      expect(await rowsFor(t, email)).toEqual(NOTHING);
      expect(await t.deps.database.db.selectFrom('accounts').select('id').execute()).toEqual([]);
    });

    it('still signs in an existing account under closed', async () => {
      const t = await app('closed');
      const user = await buildUser(t.deps.database.db, { email: unique() });
      const response = await socialSignIn(t, agent, provider, {
        sub: `${provider}-3`,
        email: user.email,
        email_verified: true,
      });
      expect(response.headers.location).toBe('/dashboard');
    });

    it('admits a verified address on an allowed domain under invite-only, not an unverified one', async () => {
      const t = await app('invite-only', { ALLOWED_SIGNUP_DOMAINS: 'label.example' });
      const proven = unique('label.example');
      const ok = await socialSignIn(t, agent, provider, {
        sub: `${provider}-4`,
        email: proven,
        email_verified: true,
      });
      expect(ok.headers.location).toBe('/dashboard');
      expect((await rowsFor(t, proven)).users).toBe(1);
      const unproven = unique('label.example');
      const refused = await socialSignIn(t, agent, provider, {
        sub: `${provider}-5`,
        email: unproven,
        email_verified: false,
      });
      expectRefusedRedirect(refused.headers.location, SIGNUP_MESSAGES.domainNeedsProof);
      expect(await rowsFor(t, unproven)).toEqual(NOTHING);
    });
  });

  describe("an invite link's pass", () => {
    async function linkIn(t: TestApp) {
      const db = t.deps.database.db;
      const owner = await buildUser(db);
      const { project } = await buildProject(db, owner.id);
      const { inviteLink } = await buildDoors(db, { id: project.id, ownerId: owner.id });
      const opened = await viewInviteLink(t, inviteLink.key);
      expect(opened.statusCode, opened.body).toBe(200);
      const setCookie = String(opened.headers['set-cookie']);
      expect(setCookie).toContain(`${INVITE_LINK_PASS_COOKIE}=`);
      expect(setCookie).toMatch(/HttpOnly/);
      expect(setCookie).toMatch(/SameSite=Lax/);
      expect(setCookie).toMatch(/Max-Age=3600/);
      return { link: inviteLink, cookie: cookiesFrom(opened.headers['set-cookie']) };
    }

    it('admits a password or Google sign-up under invite-only', async () => {
      const t = await app('invite-only');
      const { cookie } = await linkIn(t);
      const email = unique('example.com');
      const response = await passwordSignUp(t, email, cookie);
      expect(response.statusCode, response.body).toBe(200);
      const google = await socialSignIn(
        t,
        agent,
        'google',
        { sub: 'g-link', email: unique(), email_verified: true },
        cookie,
      );
      expect(google.headers.location).toBe('/dashboard');
      // Without the pass, the same sign-up is refused.
      expect((await passwordSignUp(t, unique('example.com'))).statusCode).toBe(403);
    });

    it('does not admit under closed', async () => {
      const t = await app('closed');
      const { cookie } = await linkIn(t);
      const response = await passwordSignUp(t, unique('example.com'), cookie);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ error: SIGNUP_MESSAGES.closed });
    });

    it('does not admit once its link is revoked, expired or used up', async () => {
      const t = await app('invite-only');
      const db = t.deps.database.db;
      const changes = [
        { revoked_at: new Date().toISOString() },
        { expires_at: new Date(Date.now() - 1000).toISOString() },
        { uses: 5 },
      ];
      for (const change of changes) {
        const { link, cookie } = await linkIn(t);
        await db.updateTable('invite_links').set(change).where('id', '=', link.id).execute();
        const email = unique('example.com');
        const response = await passwordSignUp(t, email, cookie);
        expect(response.statusCode, JSON.stringify(change)).toBe(403);
        expect(await rowsFor(t, email)).toEqual(NOTHING);
      }
    });

    it('does not admit after its hour, nor when forged', async () => {
      const t = await app('invite-only');
      const { link, cookie } = await linkIn(t);
      const forged = `${INVITE_LINK_PASS_COOKIE}=${link.key}.${Date.now() + 3_600_000}.${'A'.repeat(43)}`;
      expect((await passwordSignUp(t, unique('example.com'), forged)).statusCode).toBe(403);
      clock.advance(61 * 60_000);
      expect((await passwordSignUp(t, unique('example.com'), cookie)).statusCode).toBe(403);
    });

    it('is not given for a link that does not open', async () => {
      const t = await app('invite-only');
      const opened = await viewInviteLink(t, 'nosuchkeynosuchkey1234');
      expect(opened.statusCode).toBe(410);
      expect(opened.headers['set-cookie']).toBeUndefined();
    });
  });
});
