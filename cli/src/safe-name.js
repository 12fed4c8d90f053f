// @ts-check

/**
 * File and folder names made from what people typed (a repository's name, a branch, a bounce's
 * title) before they touch the disk: one name, never a path, valid on Linux, macOS and Windows.
 */

/** Characters Windows refuses in names (and the path separators), and control characters. */
// eslint-disable-next-line no-control-regex -- control characters are what is being removed
const FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f]/g;
/** Invisible characters that reorder or hide text (a "txt.exe" that displays as "exe.txt"). */
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
/** Names Windows keeps for devices, with or without an extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
/** Well under the 255 bytes most file systems allow, leaving room for the extension. */
export const MAX_NAME_BYTES = 160;

/**
 * One safe name from `raw`: no separators, `..`, control or Windows-forbidden characters, no
 * leading or trailing dots and spaces, at most `maxBytes` bytes of UTF-8; `fallback` when
 * nothing is left.
 * @param {string} raw
 * @param {string} fallback a safe name itself
 * @param {number} [maxBytes]
 */
export function safeName(raw, fallback, maxBytes = MAX_NAME_BYTES) {
  let name = raw
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .replace(FORBIDDEN, ' ')
    // A run of dots is never a name's "..": it goes, single dots stay ("v1.2").
    .replace(/\.{2,}/g, ' ')
    .replace(/\s+/g, ' ');
  name = trimName(capBytes(trimName(name), maxBytes));
  if (name === '') return fallback;
  if (RESERVED.test(name)) name = `_${name}`;
  return name;
}

/** @param {string} name */
function trimName(name) {
  // Leading dots hide a file; Windows drops trailing dots and spaces.
  return name.replace(/^[\s.]+/, '').replace(/[\s.]+$/, '');
}

/**
 * Cut to at most `maxBytes` bytes of UTF-8, between characters.
 * @param {string} name
 * @param {number} maxBytes
 */
function capBytes(name, maxBytes) {
  if (Buffer.byteLength(name, 'utf8') <= maxBytes) return name;
  let out = '';
  let bytes = 0;
  for (const char of name) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > maxBytes) break;
    out += char;
    bytes += size;
  }
  return out;
}

/**
 * Whether `name` is one that safeName could have made (with room for an extension): checked
 * again on names read back from a file before they are joined to a folder.
 * @param {string} name
 */
export function isSafeName(name) {
  return name !== '' && safeName(name, '', 255) === name;
}
