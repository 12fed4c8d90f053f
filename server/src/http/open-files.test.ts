import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenFiles } from './open-files';

async function readAll(handle: FileHandle, size: number) {
  const buffer = Buffer.alloc(size);
  await handle.read(buffer, 0, size, 0);
  return buffer.toString();
}

describe('OpenFiles', () => {
  let dir: string;
  let clock: number;
  let files: OpenFiles;
  const file = (name: string, text: string) => {
    const full = path.join(dir, name);
    fs.writeFileSync(full, text);
    return full;
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-open-files-'));
    clock = 1_000_000;
    files = new OpenFiles(1000, 2, () => clock);
  });
  afterEach(async () => {
    await files.closeAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shares one open file within its second, also between requests that arrive together', async () => {
    const a = file('a.mp3', 'first take');
    const [one, two] = await Promise.all([files.acquire(a), files.acquire(a)]);
    const three = await files.acquire(a);
    expect(one?.handle).toBe(two?.handle);
    expect(three?.handle).toBe(one?.handle);
    expect(one?.size).toBe(10);
    expect(files.size).toBe(1);
    for (const lease of [one, two, three]) await lease?.release();
    // Still kept: no one reads it, but its second is not over.
    const four = await files.acquire(a);
    expect(four?.handle).toBe(one?.handle);
    await four?.release();
  });

  it('opens again after its second; the old handle closes only when its last reader is done', async () => {
    const a = file('a.mp3', 'first take');
    const old = await files.acquire(a);
    clock += 1001;
    // As the store replaces an object: a new file renamed over the old one.
    fs.writeFileSync(`${a}.tmp`, 'second take!');
    fs.renameSync(`${a}.tmp`, a);
    const fresh = await files.acquire(a);
    expect(fresh?.handle).not.toBe(old?.handle);
    expect(fresh?.size).toBe(12);
    // The response still reading the old one goes on reading it.
    expect(await readAll(old!.handle, old!.size)).toBe('first take');
    await old?.release();
    await expect(old!.handle.stat()).rejects.toThrow();
    expect(await readAll(fresh!.handle, fresh!.size)).toBe('second take!');
    await fresh?.release();
  });

  it('keeps at most `max` files open, and answers null for a missing file or a folder', async () => {
    const leases = [];
    for (const name of ['a', 'b', 'c']) leases.push(await files.acquire(file(`${name}.mp3`, name)));
    expect(files.size).toBe(2);
    // The pushed-out first file is still readable by its lease, then closed.
    expect(await readAll(leases[0]!.handle, 1)).toBe('a');
    for (const lease of leases) await lease?.release();
    await expect(leases[0]!.handle.stat()).rejects.toThrow();
    expect(await files.acquire(path.join(dir, 'missing.mp3'))).toBeNull();
    expect(await files.acquire(dir)).toBeNull();
  });
});
