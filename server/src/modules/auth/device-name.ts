import { DEVICE_NAME_MAX_LENGTH } from '@takes/contract';

const DEFAULT_NAME = 'Desktop app';

/** Control, format and unassigned characters: nothing a name shown on /settings needs. */
const INVISIBLE = /[\p{C}]/gu;

function clean(value: string): string {
  return value.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim().slice(0, DEVICE_NAME_MAX_LENGTH);
}

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/Firefox\//, 'Firefox'],
  [/Chrome\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** A short name from a User-Agent: 'Chrome on macOS', or its first product token. */
function fromUserAgent(userAgent: string): string | undefined {
  if (/Electron\//.test(userAgent)) return DEFAULT_NAME;
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser) return system ? `${browser} on ${system}` : browser;
  const product = clean(userAgent).split(' ')[0];
  return product || undefined;
}

/**
 * The name a desktop or CLI sign-in is listed under: the one the client gave (cleaned of
 * invisible characters, at most 100 characters), else one made from its User-Agent, else
 * 'Desktop app'.
 */
export function deviceName(given: string | undefined, userAgent: string | undefined): string {
  const name = given === undefined ? '' : clean(given);
  if (name) return name;
  return (userAgent && fromUserAgent(userAgent)) || DEFAULT_NAME;
}
