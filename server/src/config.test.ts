import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, productionMailProblem } from './config';

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
    expect(config.database).toEqual({
      dialect: 'postgres',
      url: 'postgres://u@db:5432/takes',
      preparedStatements: true,
    });
    expect(
      loadConfig({ DATABASE_URL: 'postgres://u@db/t', DATABASE_PREPARED_STATEMENTS: 'false' })
        .database,
    ).toMatchObject({ preparedStatements: false });
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://u@db/t', DATABASE_PREPARED_STATEMENTS: 'maybe' }),
    ).toThrow('DATABASE_PREPARED_STATEMENTS must be true or false');
    expect(config.storage).toMatchObject({
      driver: 's3',
      bucket: 'takes-audio',
      forcePathStyle: true,
      presignedRedirect: false,
    });
    expect(config.jobs).toMatchObject({ queue: 'pgboss', runInServe: false });
  });

  it('turns on presigned redirects for media with S3_PRESIGNED_REDIRECT=true', () => {
    const config = loadConfig({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'takes-audio',
      S3_PRESIGNED_REDIRECT: 'true',
    });
    expect(config.storage).toMatchObject({ driver: 's3', presignedRedirect: true });
    expect(() =>
      loadConfig({
        STORAGE_DRIVER: 's3',
        S3_BUCKET: 'takes-audio',
        S3_PRESIGNED_REDIRECT: 'maybe',
      }),
    ).toThrow(/S3_PRESIGNED_REDIRECT/);
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
  it.each([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    [' 10.0.0.0/8 , 192.0.2.1,fd00::/8 ', ['10.0.0.0/8', '192.0.2.1', 'fd00::/8']],
    ['loopback, uniquelocal', ['loopback', 'uniquelocal']],
  ])('reads TRUST_PROXY=%s as %o', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each([
    ['true', 'TRUST_PROXY no longer takes true (any client could choose its address'],
    ['yes', 'TRUST_PROXY no longer takes true'],
    ['10.0.0.0/33', 'TRUST_PROXY must be false, a hop count (1, 2, …) or a comma-separated list'],
    ['proxy.internal', '"proxy.internal" is none of these'],
    ['10.0.0.1,', '"" is none of these'],
  ])('refuses TRUST_PROXY=%s', (value, message) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(message);
  });

  it('reads ADMIN_EMAILS as a lower-case list and refuses what is not an address', () => {
    expect(loadConfig({}).adminEmails).toEqual([]);
    expect(loadConfig({ ADMIN_EMAILS: ' Ada@Example.com, bo@example.com ,' }).adminEmails).toEqual([
      'ada@example.com',
      'bo@example.com',
    ]);
    expect(() => loadConfig({ ADMIN_EMAILS: 'ada@example.com, bob' })).toThrow(
      'Invalid configuration: ADMIN_EMAILS must be a comma-separated list of email addresses',
    );
  });

  it('reads SIGNUPS (open when unset, and says whether it was chosen)', () => {
    expect(loadConfig({}).signups).toEqual({ policy: 'open', chosen: false, allowedDomains: [] });
    for (const policy of ['open', 'invite-only', 'closed'] as const)
      expect(loadConfig({ SIGNUPS: policy }).signups).toMatchObject({ policy, chosen: true });
    expect(() => loadConfig({ SIGNUPS: 'invite' })).toThrow(
      'Invalid configuration: SIGNUPS must be open, invite-only or closed',
    );
  });

  it('reads ALLOWED_SIGNUP_DOMAINS as lower-case domains and refuses what is not one', () => {
    const domains = (value: string) =>
      loadConfig({ ALLOWED_SIGNUP_DOMAINS: value }).signups.allowedDomains;
    expect(domains(' Label.example, @studio.example ,')).toEqual([
      'label.example',
      'studio.example',
    ]);
    for (const bad of ['label', 'ada@label.example', 'label .example'])
      expect(() => loadConfig({ ALLOWED_SIGNUP_DOMAINS: bad })).toThrow(
        'Invalid configuration: ALLOWED_SIGNUP_DOMAINS must be a comma-separated list of domains such as label.example',
      );
  });

  it('reads single sign-on from OIDC_* and refuses a partial set', () => {
    const sso = {
      OIDC_ISSUER: 'https://auth.studio.example/application/o/takes/',
      OIDC_CLIENT_ID: 'takes',
      OIDC_CLIENT_SECRET: 'shh',
    };
    expect(loadConfig({}).oidc).toBeUndefined();
    expect(loadConfig({ ...sso, OIDC_NAME: 'Authentik' }).oidc).toEqual({
      issuer: 'https://auth.studio.example/application/o/takes',
      clientId: 'takes',
      clientSecret: 'shh',
      name: 'Authentik',
      scopes: ['openid', 'email', 'profile'],
      only: false,
    });
    expect(loadConfig({ ...sso, OIDC_SCOPES: 'openid email groups' }).oidc?.scopes).toEqual([
      'openid',
      'email',
      'groups',
    ]);
    const together =
      'Invalid configuration: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together';
    expect(() => loadConfig({ OIDC_ISSUER: sso.OIDC_ISSUER })).toThrow(together);
    expect(() => loadConfig({ ...sso, OIDC_CLIENT_SECRET: '' })).toThrow(together);
    expect(() => loadConfig({ OIDC_CLIENT_ID: 'takes', OIDC_CLIENT_SECRET: 'shh' })).toThrow(
      together,
    );
    expect(() => loadConfig({ OIDC_ONLY: 'true' })).toThrow(
      'Invalid configuration: OIDC_ONLY=true needs OIDC_ISSUER to be set',
    );
    expect(() => loadConfig({ ...sso, OIDC_ISSUER: 'not a url' })).toThrow('OIDC_ISSUER');
    // OIDC_ONLY: everyone comes in through the provider, so no demo accounts.
    expect(loadConfig({ ...sso, OIDC_ONLY: 'true', DEMO_ENABLED: 'true' }).demoEnabled).toBe(false);
  });

  it('asks production for SMTP_URL or an explicit MAIL_TO_LOG=true', () => {
    const problem = (env: Record<string, string>) => productionMailProblem(loadConfig(env));
    expect(problem({})).toBeUndefined();
    expect(problem({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25' })).toBeUndefined();
    expect(problem({ NODE_ENV: 'production', MAIL_TO_LOG: 'true' })).toBeUndefined();
    expect(problem({ NODE_ENV: 'production' })).toMatch(/SMTP_URL is required.*MAIL_TO_LOG=true/);
    expect(problem({ NODE_ENV: 'production', MAIL_TO_LOG: 'false' })).toMatch(/SMTP_URL/);
  });

  describe('a production start without SMTP', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-mailcheck-'));
    afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const baseEnv = (): NodeJS.ProcessEnv => {
      // Empty means unset, and a developer's .env cannot fill it in (dotenv keeps what is set).
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        SECRET_KEY: 'mail-check-secret-key-0123456789abcdef',
        LOG_LEVEL: 'info',
      };
      for (const name of ['SMTP_URL', 'MAIL_TO_LOG', 'DATABASE_URL', 'JOB_QUEUE', 'STORAGE_DRIVER'])
        env[name] = '';
      return env;
    };

    it.each(['serve', 'worker'])('stops `%s` with one line naming the variables', (command) => {
      const result = spawnSync(
        process.execPath,
        ['--import', 'tsx', path.join(here, 'main.ts'), command],
        {
          env: baseEnv(),
          encoding: 'utf8',
          timeout: 30_000,
        },
      );
      expect(result.status).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        'Invalid configuration: SMTP_URL is required when NODE_ENV=production (or set MAIL_TO_LOG=true to write emails, sign-in codes included, to the log)',
      ]);
    });

    it('serves when MAIL_TO_LOG=true says so explicitly', async () => {
      const port = await freePort();
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', path.join(here, 'main.ts'), 'serve'],
        {
          env: { ...baseEnv(), MAIL_TO_LOG: 'true', PORT: String(port), HOST: '127.0.0.1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        const deadline = Date.now() + 60_000;
        while (!output.includes('Takes is running')) {
          if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
          if (Date.now() > deadline) throw new Error(`the server did not start:\n${output}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const health = await fetch(`http://127.0.0.1:${port}/api/health`);
        expect(health.status).toBe(200);
        expect(output).toContain('"mail":"log"');
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    }, 90_000);
  });
});

describe('config: USER_STORAGE_QUOTA', () => {
  it('is none unless set; a size in the product’s binary units or a number of bytes', () => {
    expect(loadConfig({}).userStorageQuotaBytes).toBeNull();
    expect(loadConfig({ USER_STORAGE_QUOTA: '20GB' }).userStorageQuotaBytes).toBe(20 * 1024 ** 3);
    expect(loadConfig({ USER_STORAGE_QUOTA: '2.5 GB' }).userStorageQuotaBytes).toBe(
      2.5 * 1024 ** 3,
    );
    expect(loadConfig({ USER_STORAGE_QUOTA: '800MB' }).userStorageQuotaBytes).toBe(800 * 1024 ** 2);
    expect(loadConfig({ USER_STORAGE_QUOTA: '1048576' }).userStorageQuotaBytes).toBe(1048576);
  });

  it.each([
    ['lots', 'USER_STORAGE_QUOTA must be a size such as 2.5GB or 800MB, or a number of bytes'],
    ['0', 'USER_STORAGE_QUOTA must be more than 0 (leave it unset for no quota)'],
    ['0GB', 'USER_STORAGE_QUOTA must be more than 0 (leave it unset for no quota)'],
  ])('refuses %s, naming the variable', (value, message) => {
    expect(() => loadConfig({ USER_STORAGE_QUOTA: value })).toThrow(message);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
