// @ts-check

const UNITS = ['B', 'KB', 'MB', 'GB'];

/** @param {number} bytes */
export function formatBytes(bytes) {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${UNITS[unit]}`;
}

/**
 * Seconds as m:ss (h:mm:ss past an hour); an em dash when unknown.
 * @param {number | null | undefined} seconds
 */
export function formatDuration(seconds) {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '-:--';
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * A position in a track to the millisecond: m:ss.mmm (h:mm:ss.mmm past an hour).
 * @param {number} seconds
 */
export function formatTime(seconds) {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = ((ms % 60_000) / 1000).toFixed(3).padStart(6, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * "just now", "5 minutes ago", … up to a month; then the ISO date.
 * @param {string} iso
 * @param {number} [now]
 */
export function formatWhen(iso, now = Date.now()) {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const seconds = Math.round((now - time) / 1000);
  if (seconds < 0 || seconds >= 30 * 86400) return new Date(time).toISOString().slice(0, 10);
  if (seconds < 45) return 'just now';
  /** @type {[number, string][]} */
  const steps = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of steps) {
    if (seconds >= size) {
      const n = Math.round(seconds / size);
      return `${n} ${name}${n === 1 ? '' : 's'} ago`;
    }
  }
  return 'just now';
}

/** @param {string} sha */
export const shortSha = (sha) => sha.slice(0, 12);
