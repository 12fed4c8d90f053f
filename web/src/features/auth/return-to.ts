import { isSitePath } from '@takes/contract';
import { DEFAULT_AFTER_SIGN_IN } from './redirect-target';

/**
 * Where to go after a sign-in that leaves the page: an emailed magic link opens a new tab, so the
 * router state the sign-in page was given does not reach it. The sign-in page remembers its
 * target here (this browser only, for an hour: longer than a magic link lives) and the magic-link
 * page takes it once.
 */
const KEY = 'takes.returnTo';
const TTL_MS = 60 * 60 * 1000;

interface Remembered {
  path: string;
  at: number;
}

/** Remembers where to come back to; the default target clears what was remembered. */
export function rememberReturnTo(path: string, now = Date.now()): void {
  try {
    if (!isSitePath(path) || path === DEFAULT_AFTER_SIGN_IN) {
      localStorage.removeItem(KEY);
      return;
    }
    localStorage.setItem(KEY, JSON.stringify({ path, at: now } satisfies Remembered));
  } catch {
    // Storage refused (private mode, quota): the sign-in still works and lands on the dashboard.
  }
}

export function forgetReturnTo(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing was stored.
  }
}

/** The remembered path, once: it is forgotten as it is read. Null when none or too old. */
export function takeReturnTo(now = Date.now()): string | null {
  try {
    const raw = localStorage.getItem(KEY);
    localStorage.removeItem(KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<Remembered> | null;
    if (!value || !isSitePath(value.path) || typeof value.at !== 'number') return null;
    if (now - value.at > TTL_MS || value.at > now) return null;
    return value.path;
  } catch {
    return null;
  }
}
