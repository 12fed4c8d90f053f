import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { ByteCounter } from './byte-limit';
import {
  assertValidKey,
  assertValidPrefix,
  ObjectNotFoundError,
  ObjectTooLargeError,
  resolveRange,
  type ByteRange,
  type ObjectBody,
  type ObjectInfo,
  type ObjectStore,
  type PutOptions,
  type SignedUrlOptions,
} from './object-store';
import type { UrlSigner } from './url-signer';

const TMP_DIR = '.tmp';

/** Objects as files under one folder. Writes go to a temp file first, then rename into place. */
export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local' as const;

  constructor(
    private readonly root: string,
    private readonly signer: UrlSigner,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async put(key: string, body: Readable, options: PutOptions = {}): Promise<{ size: number }> {
    const target = this.pathOf(key);
    const tmpDir = path.join(this.root, TMP_DIR);
    await fsp.mkdir(tmpDir, { recursive: true });
    const tmp = path.join(tmpDir, `${randomUUID()}.part`);
    const counter = new ByteCounter(options.maxBytes);
    const file = fs.createWriteStream(tmp, { flags: 'wx' });
    try {
      await pipeline(body, counter, file);
      await fsync(tmp);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(tmp, target);
    } catch (error) {
      // A body that failed at once (a client gone before the first byte) fails the pipeline while
      // the part file is still being opened: wait until it is closed, or it would be created after
      // it was removed (and left behind).
      if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
      await fsp.rm(tmp, { force: true });
      throw error;
    }
    return { size: counter.bytes };
  }

  async putFile(key: string, file: string, options: PutOptions = {}): Promise<{ size: number }> {
    const target = this.pathOf(key);
    const { size } = await fsp.stat(file);
    if (options.maxBytes !== undefined && size > options.maxBytes)
      throw new ObjectTooLargeError(options.maxBytes);
    const tmpDir = path.join(this.root, TMP_DIR);
    await fsp.mkdir(tmpDir, { recursive: true });
    const tmp = path.join(tmpDir, `${randomUUID()}.part`);
    try {
      // copy_file_range (or a clone) where the system has it: no buffers in this process.
      await fsp.copyFile(file, tmp, fs.constants.COPYFILE_EXCL);
      await fsync(tmp);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(tmp, target);
    } catch (error) {
      await fsp.rm(tmp, { force: true });
      throw error;
    }
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<ObjectBody> {
    const file = this.pathOf(key);
    const info = await this.statFile(file);
    if (!info) throw new ObjectNotFoundError(key);
    const { start, end } = resolveRange(info.size, range);
    // An empty file has no bytes to read, and createReadStream refuses end < start.
    const body = info.size === 0 ? Readable.from([]) : fs.createReadStream(file, { start, end });
    return { body, size: info.size, start, end };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const info = await this.statFile(this.pathOf(key));
    return info ? { key, size: info.size, lastModified: info.mtime } : null;
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    assertValidPrefix(prefix);
    // Walk only the folder the prefix points into, then filter by the full prefix.
    const dirPart = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    const start = path.join(this.root, dirPart);
    const found: ObjectInfo[] = [];
    await this.walk(start, dirPart, prefix, found);
    return found.sort((a, b) => a.key.localeCompare(b.key));
  }

  signedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    assertValidKey(key);
    const expires = Math.floor(this.now().getTime() / 1000) + options.expiresInSeconds;
    return Promise.resolve(this.signer.sign(key, expires, options.downloadName));
  }

  async check(): Promise<void> {
    await fsp.mkdir(this.root, { recursive: true });
    await fsp.access(this.root, fs.constants.R_OK | fs.constants.W_OK);
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  private pathOf(key: string): string {
    assertValidKey(key);
    if (key === TMP_DIR || key.startsWith(`${TMP_DIR}/`))
      throw new Error(`Invalid object key: ${key}`);
    return path.join(this.root, ...key.split('/'));
  }

  private async statFile(file: string): Promise<fs.Stats | null> {
    try {
      const info = await fsp.stat(file);
      return info.isFile() ? info : null;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  private async walk(
    dir: string,
    keyDir: string,
    prefix: string,
    out: ObjectInfo[],
  ): Promise<void> {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    for (const entry of entries) {
      if (keyDir === '' && entry.name === TMP_DIR) continue;
      const key = keyDir ? `${keyDir}/${entry.name}` : entry.name;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) {
          await this.walk(full, key, prefix, out);
        }
      } else if (entry.isFile() && key.startsWith(prefix)) {
        // Deleted while we walked: it is simply not there any more.
        const info = await this.statFile(full);
        if (info) out.push({ key, size: info.size, lastModified: info.mtime });
      }
    }
  }
}

async function fsync(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
