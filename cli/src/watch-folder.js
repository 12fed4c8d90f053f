// @ts-check
import fsp from 'node:fs/promises';
import path from 'node:path';
import { watch } from 'chokidar';

/** @import { FSWatcher } from 'chokidar' */
/** @import { Stats } from 'node:fs' */

/**
 * A file that has stopped changing.
 * @typedef {object} SettledFile
 * @property {string} file absolute path
 * @property {number} size
 * @property {number} mtimeMs
 * @property {boolean} initial it was in the folder when the watch started, unchanged since
 */

/**
 * Hidden files, and the temporary files DAWs and copy tools write before renaming them into place.
 * @param {string} name a file name (no folder)
 */
export function isIgnoredName(name) {
  return name.startsWith('.') || name.startsWith('~') || /\.(tmp|part)$/i.test(name);
}

/**
 * Watches the files directly in a folder (not its subfolders) and reports each one once it has
 * stopped changing: its size and modification time the same for `settleMs`. A DAW writes an
 * export progressively; reporting it at its first write would publish half a file.
 */
export class SettlingWatcher {
  /**
   * @param {{
   *   dir: string;
   *   settleMs: number;
   *   onSettled: (file: SettledFile) => void;
   *   onError: (error: Error) => void;
   * }} options `dir` absolute
   */
  constructor(options) {
    this.options = options;
    this.pollMs = Math.min(500, Math.max(50, Math.round(options.settleMs / 4)));
    /**
     * Files seen changing, in the order they were first seen: their last size and modification
     * time, and since when they have had them.
     * @type {Map<string, { size: number; mtimeMs: number; since: number; initial: boolean }>}
     */
    this.pending = new Map();
    this.ready = false;
    this.closed = false;
    /** @type {NodeJS.Timeout | undefined} */
    this.timer = undefined;
    this.ticking = false;
    /** @type {FSWatcher | undefined} */
    this.watcher = undefined;
    /** @type {(() => void) | undefined} */
    this.unblock = undefined;
  }

  /**
   * Starts watching. Resolves once the files already in the folder are found (or on close).
   * @returns {Promise<void>}
   */
  start() {
    const dir = this.options.dir;
    const watcher = watch(dir, {
      depth: 0,
      ignoreInitial: false,
      alwaysStat: true,
      // The folder itself may have any name; only what is in it is filtered.
      ignored: (file) => file !== dir && isIgnoredName(path.basename(file)),
    });
    this.watcher = watcher;
    watcher.on('add', (file, stats) => this.seen(file, stats));
    watcher.on('change', (file, stats) => this.seen(file, stats));
    watcher.on('unlink', (file) => this.pending.delete(file));
    watcher.on('error', (error) => this.options.onError(/** @type {Error} */ (error)));
    return new Promise((resolve) => {
      this.unblock = resolve;
      watcher.once('ready', () => {
        this.ready = true;
        resolve();
      });
    });
  }

  async close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.pending.clear();
    this.unblock?.();
    await this.watcher?.close();
  }

  /**
   * A file was added or changed.
   * @param {string} file
   * @param {Stats | undefined} stats
   */
  seen(file, stats) {
    if (this.closed || (stats && !stats.isFile())) return;
    const known = this.pending.get(file);
    if (known && stats && known.size === stats.size && known.mtimeMs === stats.mtimeMs) return;
    this.pending.set(file, {
      size: stats?.size ?? -1,
      mtimeMs: stats?.mtimeMs ?? -1,
      since: Date.now(),
      // Found by the first scan, not written since.
      initial: !this.ready && (known?.initial ?? true),
    });
    this.schedule();
  }

  schedule() {
    if (this.closed || this.ticking || this.timer || this.pending.size === 0) return;
    this.timer = setTimeout(() => void this.tick(), this.pollMs);
  }

  /** Looks at every changing file again; reports those unchanged for the settle time, in order. */
  async tick() {
    this.timer = undefined;
    this.ticking = true;
    /** @type {SettledFile[]} */
    const settled = [];
    try {
      const entries = [...this.pending];
      const results = await Promise.all(
        entries.map(async ([file, entry]) => {
          /** @type {Stats | undefined} */
          let stats;
          try {
            stats = await fsp.stat(file);
          } catch {
            stats = undefined;
          }
          // Seen changing again meanwhile: the newer entry counts.
          if (this.pending.get(file) !== entry) return undefined;
          if (!stats || !stats.isFile()) {
            this.pending.delete(file);
            return undefined;
          }
          if (stats.size !== entry.size || stats.mtimeMs !== entry.mtimeMs) {
            entry.size = stats.size;
            entry.mtimeMs = stats.mtimeMs;
            entry.since = Date.now();
            return undefined;
          }
          if (Date.now() - entry.since < this.options.settleMs) return undefined;
          this.pending.delete(file);
          return { file, size: stats.size, mtimeMs: stats.mtimeMs, initial: entry.initial };
        }),
      );
      for (const result of results) if (result) settled.push(result);
    } finally {
      this.ticking = false;
    }
    if (this.closed) return;
    for (const file of settled) this.options.onSettled(file);
    this.schedule();
  }
}
