import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('config', () => {
  it('runs with embedded defaults when nothing is set', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/takes-x' });
    expect(config).toMatchObject({
      port: 8080,
      host: 'localhost',
      publicUrl: 'http://localhost:8080',
      database: { dialect: 'sqlite', file: '/tmp/takes-x/takes.sqlite' },
      storage: { driver: 'local', dir: '/tmp/takes-x/objects' },
      jobs: { queue: 'embedded', runInServe: true },
      mail: { smtpUrl: undefined },
    });
  });

  it('picks PostgreSQL, S3 and pg-boss when configured', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db:5432/takes',
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'takes-audio',
      S3_ENDPOINT: 'http://minio:9000',
      S3_FORCE_PATH_STYLE: 'true',
      JOB_QUEUE: 'pgboss',
      RUN_WORKER: 'false',
    });
    expect(config.database).toEqual({ dialect: 'postgres', url: 'postgres://u@db:5432/takes' });
    expect(config.storage).toMatchObject({
      driver: 's3',
      bucket: 'takes-audio',
      forcePathStyle: true,
    });
    expect(config.jobs).toMatchObject({ queue: 'pgboss', runInServe: false });
  });

  it.each([
    [
      { DATABASE_URL: 'nonsense' },
      'Invalid configuration: DATABASE_URL must be a postgres:// URL or sqlite:<file path> (got "nonsense")',
    ],
    [{ PORT: 'eighty' }, 'Invalid configuration: PORT must be a port number (got "eighty")'],
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be between 1 and 65535 (got "70000")'],
    [{ STORAGE_DRIVER: 'ftp' }, 'Invalid configuration: STORAGE_DRIVER'],
    [
      { STORAGE_DRIVER: 's3' },
      'Invalid configuration: S3_BUCKET is required when STORAGE_DRIVER=s3',
    ],
    [
      { JOB_QUEUE: 'pgboss' },
      'Invalid configuration: JOB_QUEUE=pgboss needs DATABASE_URL to be a postgres:// URL',
    ],
    [{ SECRET_KEY: 'short' }, 'Invalid configuration: SECRET_KEY must be at least 32 characters'],
    [
      { RUN_WORKER: 'maybe' },
      'Invalid configuration: RUN_WORKER must be true or false (got "maybe")',
    ],
    [
      { SMTP_URL: 'mail.example.com' },
      'Invalid configuration: SMTP_URL must be an smtp:// or smtps:// URL',
    ],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(8080);
  });

  it('stops the process at start-up with one line naming the bad variable', () => {
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'main.ts'), 'serve'],
      {
        env: { ...process.env, DATABASE_URL: 'nonsense', DATA_DIR: '/tmp/takes-never-created' },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([
      'Invalid configuration: DATABASE_URL must be a postgres:// URL or sqlite:<file path> (got "nonsense")',
    ]);
  });
});
