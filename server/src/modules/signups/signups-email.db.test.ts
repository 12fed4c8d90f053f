import { randomUUID } from 'node:crypto';
import { SIGNUP_MESSAGES, type SignupPolicyName } from '@takes/contract';
import { describe, expect, it } from 'vitest';
import { buildProject, buildUser } from '../../../test/factories';
import { mailAppSuite } from '../../../test/mail-app';
import {
  codeSignUp,
  linkSignUp,
  passwordSignUp,
  rowsFor,
  startDemo,
} from '../../../test/signup-paths';
import type { TestApp } from '../../../test/test-app';

const { smtp, uniqueEmail, start } = mailAppSuite('signup');
const NOTHING = { users: 0, accounts: 0, sessions: 0 };

async function app(policy: SignupPolicyName, env: Record<string, string> = {}): Promise<TestApp> {
  return (await start({ env: { SIGNUPS: policy, ...env } })).t;
}

const REFUSAL = { 'invite-only': SIGNUP_MESSAGES.inviteOnly, closed: SIGNUP_MESSAGES.closed };
const PATHS = {
  'email and password': (t: TestApp, email: string) => passwordSignUp(t, email),
  'emailed code': (t: TestApp, email: string) => codeSignUp(t, smtp, email),
  'emailed link': (t: TestApp, email: string) => linkSignUp(t, smtp, email),
};

describe.each(Object.entries(PATHS))('sign-up by %s', (_name, signUp) => {
  it('is open to anyone under open', async () => {
    const t = await app('open');
    const email = uniqueEmail();
    const response = await signUp(t, email);
    expect(response.statusCode, response.body).toBe(200);
    expect((await rowsFor(t, email)).users).toBe(1);
  });

  it.each(['invite-only', 'closed'] as const)(
    'is refused under %s with its message, leaving nothing written',
    async (policy) => {
      const t = await app(policy);
      const email = uniqueEmail();
      const response = await signUp(t, email);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ error: REFUSAL[policy] });
      expect(response.headers['set-cookie'] ?? []).not.toEqual(
        expect.arrayContaining([expect.stringContaining('session_token=')]),
      );
      expect(await rowsFor(t, email)).toEqual(NOTHING);
    },
  );

  it('lets an admin-invited address in under closed, once, and marks the invitation used', async () => {
    const t = await app('closed');
    const email = uniqueEmail();
    const db = t.deps.database.db;
    const now = new Date().toISOString();
    await db
      .insertInto('signup_invitations')
      .values({ email, invited_by: null, created_at: now, used_at: null })
      .execute();
    const response = await signUp(t, email);
    expect(response.statusCode, response.body).toBe(200);
    const row = await db
      .selectFrom('signup_invitations')
      .select('used_at')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.used_at).not.toBeNull();
    // Used: a new account at that address (the first one deleted) is refused again.
    await db.deleteFrom('users').where('email', '=', email).execute();
    const again = await passwordSignUp(t, email);
    expect(again.statusCode).toBe(403);
    expect(await rowsFor(t, email)).toEqual(NOTHING);
  });
});

it("marks an admin's invitation used under open too, once its account is made", async () => {
  const t = await app('open');
  const email = uniqueEmail();
  const db = t.deps.database.db;
  await db
    .insertInto('signup_invitations')
    .values({ email, invited_by: null, created_at: new Date().toISOString(), used_at: null })
    .execute();
  expect((await passwordSignUp(t, email)).statusCode).toBe(200);
  const row = await db
    .selectFrom('signup_invitations')
    .select('used_at')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  expect(row.used_at).not.toBeNull();
});

describe('an invitation to a project', () => {
  async function invite(t: TestApp, email: string, expiresInMs = 86_400_000) {
    const db = t.deps.database.db;
    const owner = await buildUser(db);
    const { project } = await buildProject(db, owner.id);
    const now = new Date().toISOString();
    await db
      .insertInto('invitations')
      .values({
        id: randomUUID(),
        project_id: project.id,
        repo_id: null,
        collection_id: null,
        email,
        role: 'commenter',
        token_hash: randomUUID().replaceAll('-', ''),
        inviter_id: owner.id,
        created_at: now,
        sent_at: now,
        expires_at: new Date(Date.now() + expiresInMs).toISOString(),
        accepted_at: null,
        accepted_by: null,
        revoked_at: null,
      })
      .execute();
  }

  it('admits its address under invite-only, on any path', async () => {
    const t = await app('invite-only');
    const [byPassword, byCode] = [uniqueEmail(), uniqueEmail()];
    await invite(t, byPassword);
    await invite(t, byCode);
    expect((await passwordSignUp(t, byPassword)).statusCode).toBe(200);
    expect((await codeSignUp(t, smtp, byCode)).statusCode).toBe(200);
  });

  it('does not once expired, nor under closed', async () => {
    const t = await app('invite-only');
    const expired = uniqueEmail();
    await invite(t, expired, -1000);
    expect((await passwordSignUp(t, expired)).statusCode).toBe(403);
    const closed = await app('closed');
    const invited = uniqueEmail();
    await invite(closed, invited);
    const response = await passwordSignUp(closed, invited);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: SIGNUP_MESSAGES.closed });
  });
});

describe('ALLOWED_SIGNUP_DOMAINS under invite-only', () => {
  const env = { ALLOWED_SIGNUP_DOMAINS: 'label.example, @Studio.example' };

  it('admits a proven address on an allowed domain (emailed code or link)', async () => {
    const t = await app('invite-only', env);
    const [a, b] = [`a${Date.now()}@label.example`, `b${Date.now()}@studio.example`];
    expect((await codeSignUp(t, smtp, a)).statusCode).toBe(200);
    expect((await linkSignUp(t, smtp, b)).statusCode).toBe(200);
    expect((await rowsFor(t, a)).users).toBe(1);
  });

  it('refuses a password sign-up on an allowed domain (unproven), pointing to the emailed code', async () => {
    const t = await app('invite-only', env);
    const email = `pw${Date.now()}@label.example`;
    const response = await passwordSignUp(t, email);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: SIGNUP_MESSAGES.domainNeedsProof });
    expect(await rowsFor(t, email)).toEqual(NOTHING);
    // Another domain, or a look-alike, is refused as anyone uninvited.
    for (const other of [`x${Date.now()}@otherlabel.example`, `y${Date.now()}@label.example.com`]) {
      const refused = await codeSignUp(t, smtp, other);
      expect(refused.json()).toMatchObject({ error: SIGNUP_MESSAGES.inviteOnly });
    }
  });

  it('admits nobody by domain under closed', async () => {
    const t = await app('closed', env);
    const response = await codeSignUp(t, smtp, `c${Date.now()}@label.example`);
    expect(response.json()).toMatchObject({ error: SIGNUP_MESSAGES.closed });
  });
});

describe("'Try demo' and the providers answer", () => {
  it.each(['invite-only', 'closed'] as const)(
    'refuses a demo account under %s (403) and offers none',
    async (policy) => {
      const t = await app(policy);
      const before = await t.deps.database.db.selectFrom('users').select('id').execute();
      const response = await startDemo(t);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ error: REFUSAL[policy] });
      const after = await t.deps.database.db.selectFrom('users').select('id').execute();
      expect(after).toHaveLength(before.length);
      const providers = await t.app.inject({ method: 'GET', url: '/api/auth/providers' });
      expect(providers.json()).toMatchObject({ demo: false, signups: policy });
    },
  );

  it('offers the demo under open', async () => {
    const t = await app('open');
    const providers = await t.app.inject({ method: 'GET', url: '/api/auth/providers' });
    expect(providers.json()).toMatchObject({ demo: true, signups: 'open' });
  });
});

describe('the stored policy', () => {
  it('overrides SIGNUPS until reset, on every path and in the providers answer', async () => {
    const t = await app('open', { ALLOWED_SIGNUP_DOMAINS: 'label.example' });
    const signups = t.services.signups;
    expect(await signups.current()).toEqual({
      policy: 'open',
      source: 'environment',
      environment_policy: 'open',
      allowed_domains: ['label.example'],
    });
    const admin = await buildUser(t.deps.database.db);
    expect(await signups.store('closed', admin.id)).toMatchObject({
      policy: 'closed',
      source: 'stored',
      environment_policy: 'open',
    });
    const refused = await passwordSignUp(t, uniqueEmail());
    expect(refused.json()).toMatchObject({ error: SIGNUP_MESSAGES.closed });
    expect((await startDemo(t)).statusCode).toBe(403);
    const providers = await t.app.inject({ method: 'GET', url: '/api/auth/providers' });
    expect(providers.json()).toMatchObject({ signups: 'closed', demo: false });

    await signups.store('invite-only', admin.id);
    expect((await signups.current()).policy).toBe('invite-only');
    expect((await passwordSignUp(t, uniqueEmail())).json()).toMatchObject({
      error: SIGNUP_MESSAGES.inviteOnly,
    });

    expect(await signups.reset()).toMatchObject({ policy: 'open', source: 'environment' });
    expect((await passwordSignUp(t, uniqueEmail())).statusCode).toBe(200);
  });

  it('ignores a stored value that does not parse', async () => {
    const t = await app('invite-only');
    await t.deps.database.db
      .insertInto('instance_settings')
      .values({
        key: 'signups',
        value: '{"policy":"wide-open"}',
        updated_by: null,
        updated_at: new Date().toISOString(),
      })
      .execute();
    expect(await t.services.signups.current()).toMatchObject({
      policy: 'invite-only',
      source: 'environment',
    });
  });
});
