import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLoopbackS3, type LoopbackS3 } from '../test/s3-server';
import { testDialect } from '../test/test-database';
import { buildApp } from './app';
import { loadConfig, type RawEnv } from './config';
import { deleteObjectsJob } from './storage/jobs';
import { openRuntime } from './runtime';

/**
 * The whole start-up path from environment variables: embedded defaults on SQLite, and the
 * scale-out set (PostgreSQL + S3 + pg-boss) on PostgreSQL.
 */
describe(`runtime from configuration (${testDialect()})`, () => {
  let dataDir: string;
  let s3: LoopbackS3 | undefined;
  let schema: string | undefined;
  const logger = pino({ level: 'silent' });

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-runtime-'));
  });
  afterEach(async () => {
    await s3?.close();
    s3 = undefined;
    if (schema)
      await admin(
        `drop schema if exists ${schema} cascade; drop schema if exists ${schema}_boss cascade`,
      );
    schema = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function environment(): Promise<RawEnv> {
    if (testDialect() === 'sqlite') return { DATA_DIR: dataDir };
    s3 = await startLoopbackS3();
    schema = `rt_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    await admin(`create schema ${schema}`);
    const url = new URL(process.env.TEST_DATABASE_URL ?? '');
    url.searchParams.set('options', `-c search_path=${schema}`);
    return {
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      STORAGE_DRIVER: 's3',
      S3_BUCKET: s3.options.bucket,
      S3_ENDPOINT: s3.options.endpoint,
      S3_ACCESS_KEY_ID: s3.options.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.options.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      JOB_QUEUE: 'pgboss',
      PGBOSS_SCHEMA: `${schema}_boss`,
      JOB_POLL_INTERVAL_MS: '500',
    };
  }

  it('starts, migrates, reports healthy, runs a job and shuts down cleanly', async () => {
    const config = loadConfig(await environment());
    const runtime = await openRuntime(config, logger);
    try {
      const expected =
        testDialect() === 'sqlite'
          ? { database: 'sqlite', storage: 'local', queue: 'embedded' }
          : { database: 'postgres', storage: 's3', queue: 'pgboss' };
      expect({
        database: runtime.database.dialect,
        storage: runtime.storage.kind,
        queue: runtime.jobs.kind,
      }).toEqual(expected);

      const app = await buildApp(runtime, { services: runtime.services });
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({ status: 'ok' });
      await app.close();

      await runtime.storage.put('tmp/one', Readable.from([Buffer.from('x')]));
      await runtime.jobs.enqueue(deleteObjectsJob, { keys: ['tmp/one'] });
      await runtime.jobs.startWorking();
      const deadline = Date.now() + 20_000;
      while ((await runtime.storage.head('tmp/one')) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await runtime.storage.head('tmp/one')).toBeNull();
    } finally {
      await runtime.close();
    }
    if (testDialect() === 'sqlite') {
      expect(fs.existsSync(path.join(dataDir, 'takes.sqlite'))).toBe(true);
      expect(fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8').trim()).toMatch(
        /^[0-9a-f]{64}$/,
      );
    }
  }, 60_000);
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
