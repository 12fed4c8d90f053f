import { createHmac, timingSafeEqual } from 'node:crypto';
import { hashPassword, verifyPassword } from '../../auth/password-hash';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import { RateLimited, Unauthenticated } from '../../errors';

/** Which kind of link a password guards: each kind has its own cookies and counts. */
export type LinkKind = 'version' | 'collection';

/** A link as far as its password goes. */
export interface GuardedLink {
  id: string;
  password_hash: string | null;
}

const TOO_MANY = 'Too many attempts. Please wait a moment and try again.';
/** How long an unlock cookie lasts in the browser (the link's own checks still apply). */
const UNLOCK_COOKIE_SECONDS = 30 * 24 * 60 * 60;
const COOKIE_PREFIX: Record<LinkKind, string> = { version: 'takes_l_', collection: 'takes_cl_' };

/** The name of a link's unlock cookie: one per link. */
export function unlockCookieName(kind: LinkKind, linkId: string): string {
  return `${COOKIE_PREFIX[kind]}${linkId.replace(/[^A-Za-z0-9]/g, '')}`;
}

/**
 * Passwords on share links (version and collection links alike): kept only as a slow hash; a
 * right password sets an HttpOnly cookie for that one link holding an HMAC of the link and its
 * hash with the server secret, so a changed or removed password ends every unlock at once (each
 * hash has its own salt). Wrong tries are limited per link and address.
 */
export class LinkPasswords {
  constructor(
    private readonly deps: {
      limiter: RateLimiter;
      /** The server secret: unlock cookies are HMACs with it. */
      secret: string;
      /** Mark unlock cookies Secure (the public URL is https). */
      secureCookies: boolean;
    },
  ) {}

  /** The slow hash to store for a new password (null: no password). */
  hash(password: string | null | undefined): Promise<string | null> {
    return password == null ? Promise.resolve(null) : hashPassword(password);
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
    if (!this.isOpen(kind, link, cookies)) throw new Unauthenticated(message);
  }

  /**
   * Checks a password and answers the Set-Cookie value that unlocks the link. More than 5 wrong
   * tries per 10 minutes from one address on one link: 429, and while limited even the right
   * password is refused.
   */
  async unlock(
    kind: LinkKind,
    link: GuardedLink,
    ip: string,
    password: string,
    wrongMessage: string,
  ): Promise<string> {
    const rule = AUTH_RATE_RULES.linkUnlock;
    const subject = `${kind}:${link.id}:${ip}`;
    const { limiter } = this.deps;
    if (await limiter.isLimited(rule, subject))
      throw new RateLimited(TOO_MANY, await limiter.retryAfterSeconds(rule, subject));
    if (link.password_hash === null || !(await verifyPassword(password, link.password_hash))) {
      if (!(await limiter.hit(rule, subject)))
        throw new RateLimited(TOO_MANY, await limiter.retryAfterSeconds(rule, subject));
      throw new Unauthenticated(wrongMessage);
    }
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

  private token(kind: LinkKind, link: GuardedLink): string {
    return createHmac('sha256', this.deps.secret)
      .update(`${kind}-link-unlock\0${link.id}\0${link.password_hash ?? ''}`)
      .digest('base64url');
  }
}

/** One cookie's value from a Cookie header. */
function readCookie(header: string | undefined, name: string): string | undefined {
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
