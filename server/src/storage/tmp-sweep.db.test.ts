import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, TestClock, type TestApp } from '../../test/test-app';
import { testDialect } from '../../test/test-database';
import { loadConfig, type RawEnv } from '../config';
import { openRuntime } from '../runtime';
import { sweepOnceAndHourly } from './tmp-sweep';

const DAY = 24 * 60 * 60 * 1000;
const logger = pino({ level: 'silent' });

describe('leftovers of interrupted uploads', () => {
  let dataDir: string | undefined;
  let schema: string | undefined;
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
    if (schema) await admin(`drop schema if exists ${schema} cascade`);
    schema = undefined;
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    dataDir = undefined;
  });

  async function environment(dir: string): Promise<RawEnv> {
    if (testDialect() === 'sqlite') return { DATA_DIR: dir };
    schema = `sw_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    await admin(`create schema ${schema}`);
    const url = new URL(process.env.TEST_DATABASE_URL ?? '');
    url.searchParams.set('options', `-c search_path=${schema}`);
    return { DATA_DIR: dir, DATABASE_URL: url.toString() };
  }

  it('a starting process sweeps DATA_DIR/tmp of files older than a day', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-startsweep-'));
    const tmp = path.join(dataDir, 'tmp');
    fs.mkdirSync(tmp);
    const old = path.join(tmp, 'upload-0d4c');
    const fresh = path.join(tmp, 'upload-9f1e');
    fs.writeFileSync(old, 'RIFF interrupted');
    fs.writeFileSync(fresh, 'RIFF in flight');
    const twoDaysAgo = new Date(Date.now() - 2 * DAY);
    fs.utimesSync(old, twoDaysAgo, twoDaysAgo);

    // A fresh database: the sweep must run on the migrated schema, without a warning.
    const lines: string[] = [];
    const watching = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const runtime = await openRuntime(loadConfig(await environment(dataDir)), watching);
    try {
      expect(fs.existsSync(old)).toBe(false);
      expect(fs.existsSync(fresh)).toBe(true);
      expect(lines).toEqual([]);
    } finally {
      await runtime.close();
    }
  }, 60_000);

  it('references of uploads that never finished go after a day, with an original nothing else uses', async () => {
    const clock = new TestClock();
    t = await createTestApp({ clock });
    const { db } = t.deps.database;
    const stale = `originals/aa/${'a'.repeat(64)}`;
    const recent = `originals/bb/${'b'.repeat(64)}`;
    for (const key of [stale, recent])
      await t.deps.storage.put(key, Readable.from([Buffer.from('RIFF')]));
    const longAgo = new Date(clock.now().getTime() - 2 * DAY).toISOString();
    await db
      .insertInto('original_refs')
      .values([
        { id: randomUUID(), original_key: stale, created_at: longAgo },
        { id: randomUUID(), original_key: recent, created_at: clock.now().toISOString() },
      ])
      .execute();

    const sweeper = await sweepOnceAndHourly({
      tmpDir: t.deps.tmpDir,
      db,
      storage: t.deps.storage,
      clock,
      logger,
    });
    await sweeper.stop();
    expect(await t.deps.storage.head(stale)).toBeNull();
    expect(await t.deps.storage.head(recent)).not.toBeNull();
    expect(
      (await db.selectFrom('original_refs').select('original_key').execute()).map(
        (r) => r.original_key,
      ),
    ).toEqual([recent]);
  });
});

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
