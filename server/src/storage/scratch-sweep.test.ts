import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSweeper, sweepScratch } from './scratch-sweep';

const DAY = 24 * 60 * 60 * 1000;

describe('scratch folder sweep', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-sweep-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function entry(name: string, ageMs: number, folder = false): string {
    const full = path.join(dir, name);
    if (folder) {
      fs.mkdirSync(full);
      fs.writeFileSync(path.join(full, 'high.mp3'), 'x');
    } else fs.writeFileSync(full, 'partial upload');
    const when = new Date(Date.now() - ageMs);
    fs.utimesSync(full, when, when);
    return full;
  }

  it('removes files and processing folders older than a day, keeps newer ones', async () => {
    entry('upload-old', DAY + 60_000);
    entry('process-old', 3 * DAY, true);
    entry('upload-new', DAY - 60_000);
    entry('bounce-fresh', 0);
    const removed = await sweepScratch(dir);
    expect(removed.sort()).toEqual(['process-old', 'upload-old']);
    expect(fs.readdirSync(dir).sort()).toEqual(['bounce-fresh', 'upload-new']);
  });

  it('several sweepers on one folder at once do no harm', async () => {
    for (let i = 0; i < 50; i++) entry(`upload-${i}`, 2 * DAY);
    entry('upload-keep', 0);
    const results = await Promise.all([sweepScratch(dir), sweepScratch(dir), sweepScratch(dir)]);
    expect(new Set(results.flat()).size).toBe(50);
    expect(fs.readdirSync(dir)).toEqual(['upload-keep']);
  });

  it('a missing folder is nothing to sweep', async () => {
    expect(await sweepScratch(path.join(dir, 'absent'))).toEqual([]);
  });

  it('sweeps again on its interval, and stops', async () => {
    const swept: string[][] = [];
    const sweeper = startSweeper(
      async () => {
        swept.push(await sweepScratch(dir));
      },
      { intervalMs: 20, onError: (error) => expect.fail(String(error)) },
    );
    try {
      // Left over after the sweeper started: a later round removes it.
      entry('upload-late', 2 * DAY);
      await expect.poll(() => fs.existsSync(path.join(dir, 'upload-late'))).toBe(false);
      expect(swept.flat()).toContain('upload-late');
    } finally {
      await sweeper.stop();
    }
    const rounds = swept.length;
    entry('upload-after-stop', 2 * DAY);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(swept.length).toBe(rounds);
    expect(fs.existsSync(path.join(dir, 'upload-after-stop'))).toBe(true);
  });
});
