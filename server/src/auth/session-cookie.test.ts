import { describe, expect, it } from 'vitest';
import { serializeSignedCookie } from 'better-call';
import { cookieValue, signedCookieValue } from './session-cookie';

const SECRET = 'a-secret-key-of-some-length-0123456789';

/** The Cookie header a browser sends back for better-call's own Set-Cookie. */
async function cookieFor(name: string, token: string, secret = SECRET): Promise<string> {
  const setCookie = await serializeSignedCookie(name, token, secret);
  return setCookie.split(';')[0]!;
}

describe('signedCookieValue', () => {
  it('reads the token better-call signed, among other cookies', async () => {
    const header = `theme=dark; ${await cookieFor('takes.session_token', 'abcDEF123')}; x=1`;
    expect(signedCookieValue(header, 'takes.session_token', SECRET)).toBe('abcDEF123');
  });

  it('answers null without the cookie and false for another key or a changed token', async () => {
    expect(signedCookieValue(null, 'takes.session_token', SECRET)).toBeNull();
    expect(signedCookieValue('a=b', 'takes.session_token', SECRET)).toBeNull();
    const other = await cookieFor(
      'takes.session_token',
      'abcDEF123',
      'another-secret-key-0123456789',
    );
    expect(signedCookieValue(other, 'takes.session_token', SECRET)).toBe(false);
    const signed = await cookieFor('takes.session_token', 'abcDEF123');
    const forged = signed.replace('abcDEF123', 'abcDEF124');
    expect(signedCookieValue(forged, 'takes.session_token', SECRET)).toBe(false);
    expect(signedCookieValue('takes.session_token=plain', 'takes.session_token', SECRET)).toBe(
      false,
    );
    expect(signedCookieValue('takes.session_token=%E0%A4%A', 'takes.session_token', SECRET)).toBe(
      false,
    );
  });

  it('remembers a verified value for the same key only', async () => {
    const signed = await cookieFor('takes.session_token', 'remembered1');
    for (let i = 0; i < 3; i++)
      expect(signedCookieValue(signed, 'takes.session_token', SECRET)).toBe('remembered1');
    expect(signedCookieValue(signed, 'takes.session_token', 'another-secret-key-0123456789')).toBe(
      false,
    );
    expect(signedCookieValue(signed, 'takes.session_token', SECRET)).toBe('remembered1');
  });

  it('takes the first of two cookies with the name, as better-call does', () => {
    expect(cookieValue('a=1; a=2', 'a')).toBe('1');
    expect(cookieValue('ab=1; a="2"', 'a')).toBe('2');
  });
});
