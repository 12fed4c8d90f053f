/**
 * One formatter per style, made on first use and kept: `toLocaleString` builds a new one on every
 * call (tens of milliseconds for the first, on a phone), and a list formats one date per row.
 */
function cachedFormat(options: Intl.DateTimeFormatOptions): (date: Date) => string {
  let formatter: Intl.DateTimeFormat | undefined;
  return (date) => {
    formatter ??= new Intl.DateTimeFormat('en-US', options);
    return formatter.format(date);
  };
}

const shortDate = cachedFormat({ year: 'numeric', month: 'short', day: 'numeric' });
const mediumDateTime = cachedFormat({ dateStyle: 'medium', timeStyle: 'short' });

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

const relativeTime = new Intl.RelativeTimeFormat('en-US', { numeric: 'always' });

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
  const ago = (value: number, unit: Intl.RelativeTimeFormatUnit) =>
    relativeTime.format(-Math.max(1, value), unit);
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
