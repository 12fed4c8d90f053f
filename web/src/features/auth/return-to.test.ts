import { afterEach, describe, expect, it } from 'vitest';
import { forgetReturnTo, rememberReturnTo, takeReturnTo } from './return-to';

afterEach(() => localStorage.clear());

describe('return-to', () => {
  it('gives the remembered path back once', () => {
    rememberReturnTo('/invite/abc?x=1');
    expect(takeReturnTo()).toBe('/invite/abc?x=1');
    expect(takeReturnTo()).toBeNull();
  });

  it('forgets after an hour', () => {
    const now = Date.parse('2026-03-01T10:00:00Z');
    rememberReturnTo('/invite/abc', now);
    expect(takeReturnTo(now + 61 * 60 * 1000)).toBeNull();
    rememberReturnTo('/invite/abc', now);
    expect(takeReturnTo(now + 59 * 60 * 1000)).toBe('/invite/abc');
  });

  it('keeps only paths inside this app, and the default clears it', () => {
    rememberReturnTo('//evil.example/x');
    expect(takeReturnTo()).toBeNull();
    rememberReturnTo('https://evil.example/x');
    expect(takeReturnTo()).toBeNull();
    rememberReturnTo('/invite/abc');
    rememberReturnTo('/dashboard');
    expect(takeReturnTo()).toBeNull();
  });

  it('refuses paths a browser reads as another site: backslashes, escapes, control characters', () => {
    for (const path of [
      '/\\evil.example',
      '/\\\\evil.example',
      '\\/evil.example',
      '/%5Cevil.example',
      '/%5cevil.example',
      '/%2F/evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/invite/abc\\x',
    ]) {
      rememberReturnTo(path);
      expect(takeReturnTo(), JSON.stringify(path)).toBeNull();
      localStorage.setItem('takes.returnTo', JSON.stringify({ path, at: Date.now() }));
      expect(takeReturnTo(), JSON.stringify(path)).toBeNull();
    }
    rememberReturnTo('/share/abc?t=1#c-2');
    expect(takeReturnTo()).toBe('/share/abc?t=1#c-2');
  });

  it('ignores what it did not write, and can be cleared', () => {
    localStorage.setItem('takes.returnTo', '{"path":"//evil.example","at":1}');
    expect(takeReturnTo()).toBeNull();
    localStorage.setItem('takes.returnTo', 'not json');
    expect(takeReturnTo()).toBeNull();
    rememberReturnTo('/invite/abc');
    forgetReturnTo();
    expect(takeReturnTo()).toBeNull();
  });
});
