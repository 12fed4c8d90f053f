import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Reads better-auth's signed session cookie without its endpoint machinery: the value is
 * `encodeURIComponent(token + '.' + base64(HMAC-SHA256(secret, token)))` (better-call's
 * `signCookieValue`). Answers the token when the signature holds, `null` when the cookie is
 * absent, and `false` when it is present but forged or malformed.
 */
export function signedCookieValue(
  cookieHeader: string | null,
  name: string,
  secret: string,
): string | null | false {
  const raw = cookieValue(cookieHeader, name);
  if (raw === null) return null;
  let value: string;
  try {
    value = raw.includes('%') ? decodeURIComponent(raw) : raw;
  } catch {
    return false;
  }
  const known = verified.get(value);
  if (known !== undefined && known.secret === secret) return known.token;
  const dot = value.lastIndexOf('.');
  if (dot < 1) return false;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith('=')) return false;
  const expected = createHmac('sha256', secret).update(token).digest();
  const given = Buffer.from(signature, 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  verified.set(value, { secret, token });
  if (verified.size > VERIFIED_KEPT) verified.delete(verified.keys().next().value as string);
  return token;
}

/**
 * Signed values already verified (only valid ones: nothing a client can fill it with), so a
 * browser's every request does not compute the HMAC again; the oldest are forgotten first.
 */
const VERIFIED_KEPT = 2000;
const verified = new Map<string, { secret: string; token: string }>();

/** The first cookie called `name` in a Cookie header (as better-call parses: first one wins). */
export function cookieValue(cookieHeader: string | null, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    return value;
  }
  return null;
}
