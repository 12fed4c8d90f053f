import fsp, { type FileHandle } from 'node:fs/promises';

/**
 * Open files of the local store kept for a moment, shared by the requests that read them.
 *
 * A 64 KB Range request (what an audio element, a seek and every share-link listener make) did
 * four file operations on the thread pool: stat, open, read, close. Here a file's handle and its
 * size and modification time are kept for `ttlMs` (1 s) after it is opened, so requests for the
 * same audio within that second only read. A handle is closed once it has expired (or was pushed
 * out by newer ones, past `max`) and no response is still reading it.
 *
 * What this allows: for up to `ttlMs` after an object is deleted or replaced on disk, a request
 * that passed its access check may still be served the bytes it had a moment before. Access is
 * never cached: every request is checked against the database before it gets here.
 */
export interface OpenFileLease {
  handle: FileHandle;
  size: number;
  mtime: Date;
  /** Hands the file back; the last lease of an expired entry closes it. */
  release(): Promise<void>;
}

interface Entry {
  file: string;
  handle: FileHandle;
  size: number;
  mtime: Date;
  expires: number;
  refs: number;
  /** Taken out of the map (expired or pushed out): closed when its last lease goes. */
  retired: boolean;
  closing?: Promise<void>;
}

export class OpenFiles {
  private readonly entries = new Map<string, Entry>();
  private readonly opening = new Map<string, Promise<Entry | null>>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly ttlMs = 1000,
    private readonly max = 256,
    private readonly now: () => number = Date.now,
  ) {}

  /** The file, open, with its size and mtime; null when it is missing or not a regular file. */
  async acquire(file: string): Promise<OpenFileLease | null> {
    let entry: Entry | undefined;
    for (;;) {
      entry = this.entries.get(file);
      if (entry && entry.expires <= this.now()) {
        this.retire(entry);
        entry = undefined;
      }
      if (entry) break;
      let pending = this.opening.get(file);
      if (!pending) {
        pending = this.open(file).finally(() => this.opening.delete(file));
        this.opening.set(file, pending);
      }
      const opened = await pending;
      if (!opened) return null;
      // Pushed out (and closed) while this request waited: open it again.
      if (!opened.retired) {
        entry = opened;
        break;
      }
    }
    entry.refs++;
    const held = entry;
    let released = false;
    return {
      handle: held.handle,
      size: held.size,
      mtime: held.mtime,
      release: () => {
        if (released) return Promise.resolve();
        released = true;
        held.refs--;
        return held.retired && held.refs === 0 ? this.close(held) : Promise.resolve();
      },
    };
  }

  /** How many files are open now (for tests and diagnostics). */
  get size(): number {
    return this.entries.size;
  }

  /** Closes every file no response is reading; the others close when their responses end. */
  async closeAll(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    const closing: Promise<void>[] = [];
    for (const entry of [...this.entries.values()]) {
      this.retire(entry);
      if (entry.closing) closing.push(entry.closing);
    }
    await Promise.all(closing);
  }

  private async open(file: string): Promise<Entry | null> {
    let handle: FileHandle;
    try {
      handle = await fsp.open(file, 'r');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
      throw error;
    }
    let info;
    try {
      info = await handle.stat();
    } catch (error) {
      await handle.close();
      throw error;
    }
    if (!info.isFile()) {
      await handle.close();
      return null;
    }
    const entry: Entry = {
      file,
      handle,
      size: info.size,
      mtime: info.mtime,
      expires: this.now() + this.ttlMs,
      refs: 0,
      retired: false,
    };
    const previous = this.entries.get(file);
    if (previous) this.retire(previous);
    this.entries.set(file, entry);
    while (this.entries.size > this.max) {
      const oldest = this.entries.values().next().value as Entry;
      this.retire(oldest);
    }
    this.sweepLater();
    return entry;
  }

  private retire(entry: Entry): void {
    if (this.entries.get(entry.file) === entry) this.entries.delete(entry.file);
    if (entry.retired) return;
    entry.retired = true;
    if (entry.refs === 0) void this.close(entry);
  }

  private close(entry: Entry): Promise<void> {
    entry.closing ??= entry.handle.close().catch(() => undefined);
    return entry.closing;
  }

  /** Closes expired files nobody asks for again. */
  private sweepLater(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const now = this.now();
      for (const entry of [...this.entries.values()]) if (entry.expires <= now) this.retire(entry);
      if (this.entries.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, this.ttlMs);
    this.sweeper.unref();
  }
}
