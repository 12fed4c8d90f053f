import { describe, expect, it } from 'vitest';
import { DEFAULT_AFTER_SIGN_IN, redirectTargetFrom } from './redirect-target';

describe('where signing in leads', () => {
  it('prefers the router state, then a `next` path on this site, then the dashboard', () => {
    const from = { from: { pathname: '/projects/p1', search: '?x=1' } };
    expect(redirectTargetFrom(from, '/share/abc')).toBe('/projects/p1?x=1');
    expect(redirectTargetFrom(null, '/share/abc?request_access=1')).toBe(
      '/share/abc?request_access=1',
    );
    expect(redirectTargetFrom(null, null)).toBe(DEFAULT_AFTER_SIGN_IN);
  });

  it('never follows `next` off the site or back to the sign-in page', () => {
    for (const next of ['//evil.example', 'https://evil.example', '/\\evil.example', '/login'])
      expect(redirectTargetFrom(null, next)).toBe(DEFAULT_AFTER_SIGN_IN);
  });
});
