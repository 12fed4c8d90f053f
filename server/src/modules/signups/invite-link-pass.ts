import { createHmac, timingSafeEqual } from 'node:crypto';
import { cookieValue } from '../../auth/session-cookie';

/** The cookie a visitor gets when the join page opens a valid invite link. */
export const INVITE_LINK_PASS_COOKIE = 'takes.invite_link';
/** An hour: long enough to make an account after opening the link, short enough to be forgotten. */
export const INVITE_LINK_PASS_SECONDS = 60 * 60;

/**
 * The invite link a visitor opened, carried to the sign-up that follows (invite-only lets them
 * in): `key.expiresMs.signature`, an HMAC with the app's secret, so a visitor cannot make one.
 */
export class InviteLinkPass {
  constructor(private readonly secret: string) {}

  /** The Set-Cookie header value for a link key opened at `nowMs`. */
  cookie(key: string, nowMs: number, secure: boolean): string {
    const expires = nowMs + INVITE_LINK_PASS_SECONDS * 1000;
    const value = `${key}.${expires}.${this.sign(`${key}.${expires}`)}`;
    return [
      `${INVITE_LINK_PASS_COOKIE}=${value}`,
      'Path=/',
      `Max-Age=${INVITE_LINK_PASS_SECONDS}`,
      'HttpOnly',
      'SameSite=Lax',
      ...(secure ? ['Secure'] : []),
    ].join('; ');
  }

  /** The link key a request's cookies carry, when the pass is genuine and not expired. */
  keyOf(headers: Headers | undefined, nowMs: number): string | undefined {
    const raw = cookieValue(headers?.get('cookie') ?? null, INVITE_LINK_PASS_COOKIE);
    const match = raw ? /^([A-Za-z0-9]+)\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(raw) : null;
    if (!match) return undefined;
    const [, key, expires, signature] = match as unknown as [string, string, string, string];
    const expected = Buffer.from(this.sign(`${key}.${expires}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return Number(expires) > nowMs ? key : undefined;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret)
      .update(`invite-link-pass:${payload}`)
      .digest('base64url');
  }
}
