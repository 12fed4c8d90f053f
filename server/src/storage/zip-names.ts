/**
 * Names inside a zip made from titles people typed (an export's folders and files, a shared
 * collection's "Download all"): one safe path segment each (no folder separators, no `..`,
 * nothing file systems refuse), unique within its folder.
 */

const REFUSED = new Set([...'\\/:*?"<>|']);
// Names Windows will not open whatever their extension.
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
const MAX_LENGTH = 100;

/** A title as one file or folder name; `fallback` when nothing usable is left. */
export function safeSegment(title: string, fallback: string): string {
  const replaced = [...title.normalize('NFC')]
    .map((c) => (c < ' ' || c === '\x7f' || REFUSED.has(c) ? '_' : c))
    .join('')
    .replace(/\s+/g, ' ');
  // Leading dots would hide a file or make `..`; trailing dots and spaces are dropped by Windows.
  let name = replaced.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  name = [...name].slice(0, MAX_LENGTH).join('').trim();
  if (name === '') return fallback;
  return RESERVED.test(name) ? `_${name}` : name;
}

/** Hands out names unique within one folder (compared case-insensitively): `a`, `a (2)`, ... */
export class UniqueNames {
  private readonly taken = new Set<string>();

  /** `base` is already safe; `extension` (with its dot, or '') stays at the end. */
  take(base: string, extension = ''): string {
    for (let n = 1; ; n++) {
      const name = n === 1 ? `${base}${extension}` : `${base} (${n})${extension}`;
      const key = name.toLowerCase();
      if (!this.taken.has(key)) {
        this.taken.add(key);
        return name;
      }
    }
  }
}
