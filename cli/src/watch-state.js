// @ts-check
import fs from 'node:fs';
import path from 'node:path';

/**
 * A file `takes watch` is done with: published (its commit, and bounce), or refused by the
 * server for what it is (not audio, too large), which sending again would not change.
 * @typedef {object} WatchedFile
 * @property {string} file its name when it was published or refused
 * @property {string} at ISO time
 * @property {string} [commit] the commit's SHA
 * @property {string} [bounce] the bounce's id
 * @property {string} [refused] the server's reason
 */

/**
 * The content hash of a file in the folder as it was when it was last read, so that a watch
 * started again need not read every file it has published to know it.
 * @typedef {{ size: number; mtimeMs: number; sha256: string }} HashedName
 */

/**
 * What is remembered for one watched folder, published to one repository's branch on one server.
 * @typedef {object} WatchEntry
 * @property {string} folder
 * @property {string} server
 * @property {string} repoId
 * @property {string} branch
 * @property {Record<string, WatchedFile>} files by the SHA-256 of their content
 * @property {Record<string, HashedName>} names by file name
 */

/** @typedef {{ version: 1; watches: Record<string, Partial<WatchEntry>> }} StateFile */

export const WATCH_STATE_FILE = 'watch-state.json';

/**
 * The files `takes watch` has published, by content hash, kept in the config folder
 * (watch-state.json) per folder, server, repository and branch: a renamed or touched file is not
 * published again, and a watch started again catches up with what it has not published.
 *
 * Other `takes watch` runs (other folders) may write the same file: each write reads it again
 * and changes only this watch's entry, then replaces the file whole (a temporary file renamed
 * over it, never half-written), readable by its owner only.
 */
export class WatchState {
  /**
   * @param {{ configDir: string; folder: string; server: string; repoId: string; branch: string }} options
   */
  constructor(options) {
    this.file = path.join(options.configDir, WATCH_STATE_FILE);
    this.key = JSON.stringify([options.folder, options.server, options.repoId, options.branch]);
    const saved = readState(this.file).watches[this.key];
    /** @type {WatchEntry} */
    this.entry = {
      folder: options.folder,
      server: options.server,
      repoId: options.repoId,
      branch: options.branch,
      files: { ...saved?.files },
      names: { ...saved?.names },
    };
  }

  /**
   * The published (or refused) file with this content, if any.
   * @param {string} sha256
   * @returns {WatchedFile | undefined}
   */
  get(sha256) {
    return Object.hasOwn(this.entry.files, sha256) ? this.entry.files[sha256] : undefined;
  }

  /**
   * The hash of a file's content from when it was last read, if it has the same size and
   * modification time now.
   * @param {string} name
   * @param {number} size
   * @param {number} mtimeMs
   */
  hashOf(name, size, mtimeMs) {
    if (!Object.hasOwn(this.entry.names, name)) return undefined;
    const known = this.entry.names[name];
    return known && known.size === size && known.mtimeMs === mtimeMs ? known.sha256 : undefined;
  }

  /**
   * Remembers what was done with a file (and its hash under its name) and saves at once.
   * @param {string} sha256
   * @param {WatchedFile} file
   * @param {{ name: string; size: number; mtimeMs: number }} [read] the file as it was hashed
   */
  set(sha256, file, read) {
    this.entry.files[sha256] = file;
    if (read) this.entry.names[read.name] = { size: read.size, mtimeMs: read.mtimeMs, sha256 };
    this.save();
  }

  /**
   * Remembers the hash of a file that was already published under another name or time.
   * @param {{ name: string; size: number; mtimeMs: number }} read
   * @param {string} sha256
   */
  setHash(read, sha256) {
    if (this.hashOf(read.name, read.size, read.mtimeMs) === sha256) return;
    this.entry.names[read.name] = { size: read.size, mtimeMs: read.mtimeMs, sha256 };
    this.save();
  }

  save() {
    const state = readState(this.file);
    const onDisk = state.watches[this.key];
    // Another run on the same folder may have published files too: both are kept.
    this.entry.files = { ...onDisk?.files, ...this.entry.files };
    this.entry.names = { ...onDisk?.names, ...this.entry.names };
    state.watches[this.key] = this.entry;
    writeState(this.file, state);
  }
}

/**
 * @param {string} file
 * @returns {StateFile}
 */
function readState(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return emptyState();
    throw error;
  }
  try {
    const parsed = /** @type {unknown} */ (JSON.parse(text));
    if (isState(parsed)) return parsed;
  } catch {
    // A damaged file is the same as none: what is published is published again at worst.
  }
  return emptyState();
}

/** @returns {StateFile} */
function emptyState() {
  return { version: 1, watches: {} };
}

/**
 * @param {unknown} value
 * @returns {value is StateFile}
 */
function isState(value) {
  if (!isObject(value) || value.version !== 1 || !isObject(value.watches)) return false;
  return Object.values(value.watches).every(
    (entry) =>
      isObject(entry) &&
      (entry.files === undefined || isObject(entry.files)) &&
      (entry.names === undefined || isObject(entry.names)),
  );
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * @param {string} file
 * @param {StateFile} state
 */
function writeState(file, state) {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Write beside it and rename, so a crash never leaves half a file; 0600 from the start.
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temp, 0o600);
  fs.renameSync(temp, file);
}
