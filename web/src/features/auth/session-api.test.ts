import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchSession, isSessionResponse } from './session-api';

const session = {
  user: {
    id: 'u1',
    email: 'ada@example.com',
    name: null,
    display_name: 'Ada',
    avatar_url: null,
  },
  expires_at: '2026-12-01T00:00:00.000Z',
};

afterEach(() => vi.unstubAllGlobals());

describe('session-api', () => {
  it('accepts the session shape and refuses others', () => {
    expect(isSessionResponse(session)).toBe(true);
    expect(isSessionResponse({ ...session, expires_at: 1 })).toBe(false);
    expect(isSessionResponse({ ...session, user: { ...session.user, email: null } })).toBe(false);
    expect(isSessionResponse(null)).toBe(false);
  });

  it('reads the session, keeping only the known fields', async () => {
    const body = { ...session, user: { ...session.user, extra: 'x' } };
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify(body))));
    expect(await fetchSession()).toEqual(session);
  });

  it('treats the no-user answer as signed out, but not a half-empty one', async () => {
    const signedOut = { user: null, expires_at: null };
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify(signedOut))));
    expect(await fetchSession()).toBeNull();
    const halfEmpty = { user: null, expires_at: session.expires_at };
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify(halfEmpty))));
    await expect(fetchSession()).rejects.toThrow('Unexpected session response');
  });

  it('treats 401 and an empty answer as signed out, and throws on a malformed one', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('', { status: 401 })));
    expect(await fetchSession()).toBeNull();
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('')));
    expect(await fetchSession()).toBeNull();
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify({ user: 1 }))));
    await expect(fetchSession()).rejects.toThrow('Unexpected session response');
  });
});
