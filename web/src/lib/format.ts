/**
 * Dates are written in en-US by hand, not with Intl: the first Intl formatter a page makes loads
 * the browser's locale data (about 14 ms here, 55 ms on a throttled phone, in the middle of the
 * first render of the dashboard and project pages). The text is what `toLocaleString('en-US')`
 * writes for these two styles (the tests compare them); the local time zone, as Intl uses.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Jan 2, 2026 */
function shortDate(date: Date): string {
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}

/** Jan 2, 2026, 3:04 PM */
function mediumDateTime(date: Date): string {
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  return `${shortDate(date)}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** A date from the API, or null when it is missing or not a date. */
function dateOf(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Dates in en-US short form (Jan 2, 2026); '' for a missing or unreadable one. */
export function formatDate(iso: string | null | undefined): string {
  const date = dateOf(iso);
  return date ? shortDate(date) : '';
}

/** A date and time in en-US medium form (Jan 2, 2026, 3:04 PM); '' for a missing or unreadable one. */
export function formatDateTime(iso: string | null | undefined): string {
  const date = dateOf(iso);
  return date ? mediumDateTime(date) : '';
}

/** KB under 1 MB, else MB with the given decimals. */
export function formatFileSize(bytes: number, mbDecimals = 1): string {
  const kb = bytes / 1024;
  if (kb < 1024) return `${kb.toFixed(1)} KB`;
  return `${(kb / 1024).toFixed(mbDecimals)} MB`;
}

export function pluralize(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

type TimeUnit = 'minute' | 'hour' | 'day' | 'month' | 'year';

/** 3 days ago, 1 minute ago, 1,204 years ago: Intl's en-US words for a past time, numeric. */
function ago(value: number, unit: TimeUnit): string {
  const n = Math.max(1, value);
  const digits = String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${digits} ${unit}${n === 1 ? '' : 's'} ago`;
}

/**
 * Relative time: under 45 s 'just now'; minutes under 45;
 * hours under 22; days under 26; months under 11; else years. Future times read 'just now'.
 */
export function formatRelativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '';
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return '';
  const seconds = Math.max(0, (now - then) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 45) return ago(minutes, 'minute');
  const hours = Math.round(seconds / 3600);
  if (hours < 22) return ago(hours, 'hour');
  const days = Math.round(seconds / 86_400);
  if (days < 26) return ago(days, 'day');
  const months = Math.round(days / 30.4375);
  if (months < 11) return ago(months, 'month');
  return ago(Math.round(days / 365.25), 'year');
}
