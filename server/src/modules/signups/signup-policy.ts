import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import {
  SIGNUP_MESSAGES,
  SIGNUP_POLICIES,
  type AdminSignups,
  type SignupPolicyName,
} from '@takes/contract';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { Forbidden } from '../../errors';
import type { InviteLinkPass } from './invite-link-pass';
import type { SignupsRepo } from './signups.repo';

export interface SignupPolicyDeps {
  repo: SignupsRepo;
  clock: Clock;
  /** SIGNUPS and ALLOWED_SIGNUP_DOMAINS. */
  signups: Config['signups'];
  pass: InviteLinkPass;
  /** Whether the public URL is https (the pass cookie is then Secure). */
  https: boolean;
}

/** Who is asking for a new account, as better-auth is about to make it. */
export interface Newcomer {
  /** Lower case. */
  email: string;
  /** Whether the path proved the address (an emailed code or link, a provider's verified email). */
  emailVerified: boolean;
}

/**
 * Who may make an account: the policy an admin stored, else SIGNUPS. `open` lets anyone in;
 * `invite-only` lets in an address with a live invitation or an admin's sign-up invitation, a
 * visitor who opened a live invite link (its pass cookie), and a proven address on
 * ALLOWED_SIGNUP_DOMAINS; `closed` lets in only an admin's sign-up invitation.
 */
export class SignupPolicy {
  constructor(private readonly deps: SignupPolicyDeps) {}

  async current(): Promise<AdminSignups> {
    const stored = await this.stored();
    const environment = this.deps.signups.policy;
    return {
      policy: stored ?? environment,
      source: stored ? 'stored' : 'environment',
      environment_policy: environment,
      allowed_domains: [...this.deps.signups.allowedDomains],
    };
  }

  /** The policy in force. */
  async policy(): Promise<SignupPolicyName> {
    return (await this.stored()) ?? this.deps.signups.policy;
  }

  /** An admin's choice, overriding SIGNUPS until `reset` (the admin routes record the action). */
  async store(policy: SignupPolicyName, adminId: string | null): Promise<AdminSignups> {
    await this.storeIn(undefined, policy, adminId);
    return this.current();
  }

  /** Back to SIGNUPS. */
  async reset(): Promise<AdminSignups> {
    await this.resetIn(undefined);
    return this.current();
  }

  /** `store`, written in `trx` (the transaction that also records the admin's action). */
  storeIn(
    trx: Kysely<Database> | undefined,
    policy: SignupPolicyName,
    adminId: string | null,
  ): Promise<void> {
    return this.deps.repo.store(JSON.stringify({ policy }), adminId, this.now(), trx);
  }

  /** `reset`, written in `trx`. */
  resetIn(trx: Kysely<Database> | undefined): Promise<void> {
    return this.deps.repo.removeStored(trx);
  }

  /** Refuses (403, with the policy's message) unless anyone may sign up: 'Try demo' asks. */
  async requireOpen(): Promise<void> {
    const policy = await this.policy();
    if (policy !== 'open') throw refusal(policy);
  }

  /**
   * Before any new account, on every path: throws Forbidden with the policy's message when it
   * may not be made. An admin's sign-up invitation is marked used here, as the account is made.
   *
   * Allowed domains admit only a proven address. Email and password sign-up proves nothing
   * (better-auth makes the account unverified and signs it in at once; the confirmation code is
   * optional), so it is refused on a domain alone, with a message that points to the emailed
   * code: nobody gets a usable account on an allowed domain without proving the address.
   */
  async admit(newcomer: Newcomer, headers: Headers | undefined): Promise<void> {
    const email = newcomer.email.toLowerCase();
    const now = this.now();
    // Whatever the policy, an admin's invitation is used once its account is made (so the admin
    // page does not list it as pending); it lets the address in under any policy.
    if (await this.deps.repo.useSignupInvitation(email, now)) return;
    const policy = await this.policy();
    if (policy === 'open') return;
    if (policy === 'closed') throw refusal(policy);
    if (await this.deps.repo.hasPendingInvitation(email, now)) return;
    const key = this.deps.pass.keyOf(headers, this.deps.clock.now().getTime());
    if (key !== undefined && (await this.deps.repo.inviteLinkIsLive(key, now))) return;
    if (this.onAllowedDomain(email)) {
      if (newcomer.emailVerified) return;
      throw new Forbidden(SIGNUP_MESSAGES.domainNeedsProof);
    }
    throw refusal(policy);
  }

  /** The pass cookie for an invite link the join page just opened (it was valid). */
  inviteLinkCookie(key: string): string {
    return this.deps.pass.cookie(key, this.deps.clock.now().getTime(), this.deps.https);
  }

  private onAllowedDomain(email: string): boolean {
    const domain = email.slice(email.lastIndexOf('@') + 1);
    return this.deps.signups.allowedDomains.includes(domain);
  }

  /** The stored policy; a row that does not parse (hand-edited) is ignored. */
  private async stored(): Promise<SignupPolicyName | undefined> {
    const value = await this.deps.repo.storedValue();
    if (value === undefined) return undefined;
    try {
      const policy = (JSON.parse(value) as { policy?: unknown }).policy;
      return SIGNUP_POLICIES.find((known) => known === policy);
    } catch {
      return undefined;
    }
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

function refusal(policy: Exclude<SignupPolicyName, 'open'>): Forbidden {
  return new Forbidden(policy === 'closed' ? SIGNUP_MESSAGES.closed : SIGNUP_MESSAGES.inviteOnly);
}
