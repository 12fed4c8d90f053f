import { createHmac, timingSafeEqual } from 'node:crypto';
import { addressNetwork } from '../../auth/address-network';
import { BoundedGate } from '../../auth/bounded-gate';
import { hashPassword, verifyPassword } from '../../auth/password-hash';
import { passwordProblem } from '../../auth/password-policy';
import { AUTH_RATE_RULES, type RateLimiter, type RateRule } from '../../auth/rate-limiter';
import { Invalid, RateLimited, Unauthenticated } from '../../errors';

/** Which kind of link a password guards: each kind has its own cookies and counts. */
export type LinkKind = 'version' | 'collection' | 'blind' | 'upload';

/** A link as far as its password goes. */
export interface GuardedLink {
  id: string;
  password_hash: string | null;
}

const TOO_MANY = 'Too many attempts. Please wait a moment and try again.';
const BUSY = 'Too many passwords are being checked right now. Please try again in a moment.';
/**
 * Link password hashes one process computes at once, and how many more may wait: each scrypt
 * hash holds 128 MiB and one of libuv's 4 threads (which file reads share) for up to a second,
 * and anyone holding a link's key may ask for one.
 */
export const LINK_PASSWORD_HASHING = { concurrent: 2, queue: 8 } as const;
/** How long an unlock cookie lasts in the browser (the link's own checks still apply). */
const UNLOCK_COOKIE_SECONDS = 30 * 24 * 60 * 60;
const COOKIE_PREFIX: Record<LinkKind, string> = {
  version: 'takes_l_',
  collection: 'takes_cl_',
  blind: 'takes_bl_',
  upload: 'takes_ul_',
};

/** The name of a link's unlock cookie: one per link. */
export function unlockCookieName(kind: LinkKind, linkId: string): string {
  return `${COOKIE_PREFIX[kind]}${linkId.replace(/[^A-Za-z0-9]/g, '')}`;
}

/**
 * Passwords on share links (version and collection links alike): kept only as a slow hash; a
 * right password sets an HttpOnly cookie for that one link holding an HMAC of the link and its
 * hash with the server secret, so a changed or removed password ends every unlock at once (each
 * hash has its own salt). Every try is counted before the password is hashed, per link and
 * address and per link; at most a few hashes run at once, and common passwords are refused.
 */
export class LinkPasswords {
  private readonly hashing: BoundedGate;

  constructor(
    private readonly deps: {
      limiter: RateLimiter;
      /** The server secret: unlock cookies are HMACs with it. */
      secret: string;
      /** Mark unlock cookies Secure (the public URL is https). */
      secureCookies: boolean;
      /** Where password hashing waits its turn (default: `LINK_PASSWORD_HASHING`). */
      hashing?: BoundedGate;
    },
  ) {
    this.hashing = deps.hashing ?? new BoundedGate(LINK_PASSWORD_HASHING);
  }

  /** The slow hash to store for a new password (null: no password); a common one is refused. */
  async hash(password: string | null | undefined): Promise<string | null> {
    if (password == null) return null;
    const problem = passwordProblem(password);
    if (problem) throw new Invalid(problem);
    return this.inTurn(() => hashPassword(password));
  }

  /** Whether the request (its Cookie header) may see a link: always when it has no password. */
  isOpen(kind: LinkKind, link: GuardedLink, cookies: string | undefined): boolean {
    if (link.password_hash === null) return true;
    const sent = readCookie(cookies, unlockCookieName(kind, link.id));
    return sent !== undefined && sameText(sent, this.token(kind, link));
  }

  /** 401 with `message` (and nothing else) while a protected link is locked for this request. */
  requireOpen(
    kind: LinkKind,
    link: GuardedLink,
    cookies: string | undefined,
    message: string,
  ): void {
    if (!this.isOpen(kind, link, cookies))
      throw new Unauthenticated(message, { code: 'link_password_required' });
  }

  /**
   * Checks a password and answers the Set-Cookie value that unlocks the link. Each try counts
   * before the (slow) check, so concurrent tries cannot slip past the limits: 5 per 10 minutes per
   * link and address (an IPv6 /64), 50 per hour per link from all addresses; beyond either even
   * the right password gets 429.
   */
  async unlock(
    kind: LinkKind,
    link: GuardedLink,
    ip: string,
    password: string,
    wrongMessage: string,
  ): Promise<string> {
    await this.count(AUTH_RATE_RULES.linkUnlock, `${kind}:${link.id}:${addressNetwork(ip)}`);
    await this.count(AUTH_RATE_RULES.linkUnlockLink, `${kind}:${link.id}`);
    const stored = link.password_hash;
    if (stored === null || !(await this.inTurn(() => verifyPassword(password, stored))))
      throw new Unauthenticated(wrongMessage, { code: 'link_password_wrong' });
    const cookie = [
      `${unlockCookieName(kind, link.id)}=${this.token(kind, link)}`,
      'Path=/',
      `Max-Age=${UNLOCK_COOKIE_SECONDS}`,
      'HttpOnly',
      'SameSite=Lax',
    ];
    if (this.deps.secureCookies) cookie.push('Secure');
    return cookie.join('; ');
  }

  /** Counts one try; 429 when it is over the rule's limit. */
  private async count(rule: RateRule, subject: string): Promise<void> {
    const { limiter } = this.deps;
    if (!(await limiter.hit(rule, subject)))
      throw new RateLimited(TOO_MANY, await limiter.retryAfterSeconds(rule, subject));
  }

  /** Runs a password hash in its turn; 429 at once when too many are running and waiting. */
  private async inTurn<T>(work: () => Promise<T>): Promise<T> {
    const done = this.hashing.run(work);
    if (!done) throw new RateLimited(BUSY, 1);
    return done;
  }

  private token(kind: LinkKind, link: GuardedLink): string {
    return createHmac('sha256', this.deps.secret)
      .update(`${kind}-link-unlock\0${link.id}\0${link.password_hash ?? ''}`)
      .digest('base64url');
  }
}

/** One cookie's value from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
