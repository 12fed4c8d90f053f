import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { enableWal, openSqliteFile } from './sqlite-file';

function busy(code = 'SQLITE_BUSY'): Error {
  return Object.assign(new Error('database is locked'), { code });
}

describe('opening the SQLite file', () => {
  const dirs: string[] = [];
  afterEach(() =>
    dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })),
  );

  it('switches a fresh file to write-ahead logging with the busy timeout already set', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-sqlite-'));
    dirs.push(dir);
    const sqlite = openSqliteFile(path.join(dir, 'takes.db'));
    try {
      expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(sqlite.pragma('busy_timeout', { simple: true })).toBe(10_000);
      expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(sqlite.pragma('synchronous', { simple: true })).toBe(2);
    } finally {
      sqlite.close();
    }
  });

  it('tries the switch again while another process answers SQLITE_BUSY at once', () => {
    const answers = [busy(), busy('SQLITE_BUSY_RECOVERY'), undefined];
    const calls: string[] = [];
    const sleeps: number[] = [];
    enableWal(
      {
        pragma(source) {
          calls.push(source);
          const answer = answers.shift();
          if (answer) throw answer;
          return 'wal';
        },
      },
      { sleep: (ms) => sleeps.push(ms) },
    );
    expect(calls).toEqual(['journal_mode = WAL', 'journal_mode = WAL', 'journal_mode = WAL']);
    expect(sleeps).toHaveLength(2);
  });

  it('gives up with the error after the timeout, and at once on any other error', () => {
    let clock = 0;
    const alwaysBusy = {
      pragma() {
        throw busy();
      },
    };
    expect(() =>
      enableWal(alwaysBusy, { timeoutMs: 100, now: () => clock, sleep: (ms) => (clock += ms) }),
    ).toThrow('database is locked');
    expect(clock).toBeGreaterThanOrEqual(100);

    let tries = 0;
    const broken = {
      pragma() {
        tries++;
        throw Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' });
      },
    };
    expect(() => enableWal(broken)).toThrow('file is not a database');
    expect(tries).toBe(1);
  });
});
