import type { ByteRange } from '../storage/object-store';

/**
 * Parses a single-range `Range: bytes=…` header against an object size.
 * Returns undefined when the header is absent, malformed or multi-range (serve it whole),
 * 'unsatisfiable' when it cannot be served, else the inclusive range.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return undefined;
  if (from === '') {
    // Suffix range: the last N bytes.
    const suffix = Number(to);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(size - suffix, 0), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (to !== '' && Number(to) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/**
 * Whether a Range request may be answered with the range (RFC 9110 section 13.1.5): yes without
 * If-Range; with one, only when it names the current representation: the same strong ETag, or
 * exactly its Last-Modified date. Otherwise the whole object is sent (200).
 */
export function ifRangeMatches(
  header: string | undefined,
  current: { etag?: string | undefined; lastModified: Date },
): boolean {
  if (header === undefined) return true;
  const value = header.trim();
  if (value.startsWith('W/')) return false;
  if (value.startsWith('"'))
    return current.etag !== undefined && !current.etag.startsWith('W/') && value === current.etag;
  const date = Date.parse(value);
  return !Number.isNaN(date) && date === Math.floor(current.lastModified.getTime() / 1000) * 1000;
}

/** Whether If-None-Match names the current ETag (weak comparison, as RFC 9110 asks here). */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}
