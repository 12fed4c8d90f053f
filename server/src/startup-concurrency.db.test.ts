import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../test/built-server';
import { testDialect } from '../test/test-database';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '..');
const repoDir = path.resolve(serverDir, '..');
const running = new Set<ChildProcess>();
const databases = new Set<string>();

/**
 * Real `serve` and `worker` processes started in the same instant on one fresh database:
 * every one of them must come up (no "deadlock detected" from concurrent start-up work).
 */
describe(`processes started together (${testDialect()})`, () => {
  let workDir: string;
  let mainJs: string;

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-startup-'));
    // The built server, as deployed: much quicker to start than five tsx processes.
    mainJs = (await buildServer('startup-test')).mainJs;
  }, 60_000);

  // Whatever a test left when it failed or ran out of time: no process or database outlives the run.
  afterAll(async () => {
    for (const child of running) child.kill('SIGKILL');
    for (const name of databases) {
      await admin(
        process.env.TEST_DATABASE_URL ?? '',
        `drop database if exists ${name} with (force)`,
      );
    }
    fs.rmSync(workDir, { recursive: true, force: true });
    if (mainJs) fs.rmSync(path.dirname(mainJs), { recursive: true, force: true });
  });

  if (testDialect() === 'postgres') {
    it('3 serve + 2 worker on a fresh database come up every time (pg-boss, 10 rounds)', async () => {
      for (let round = 1; round <= 10; round++) {
        await onFreshPostgres((url) => startTogether(url, 'pgboss', `pgboss round ${round}`));
      }
      // About a minute on an idle 2-core machine; the limit leaves room for a busy one.
    }, 300_000);

    it('3 serve + 2 worker on a fresh database come up (embedded queue)', async () => {
      await onFreshPostgres((url) => startTogether(url, 'embedded', 'embedded round'));
    }, 60_000);
  } else {
    it('3 serve + 2 worker on a fresh SQLite file come up every time (embedded queue, 3 rounds)', async () => {
      for (let round = 1; round <= 3; round++) {
        const file = path.join(workDir, `fresh-${randomUUID()}.sqlite`);
        await startTogether(`sqlite:${file}`, 'embedded', `sqlite round ${round}`);
      }
    }, 150_000);
  }

  async function startTogether(
    databaseUrl: string,
    queue: 'pgboss' | 'embedded',
    label: string,
  ): Promise<void> {
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    const env = (name: string): NodeJS.ProcessEnv => {
      const dataDir = path.join(workDir, `${label.replaceAll(' ', '-')}-${name}`);
      fs.mkdirSync(dataDir, { recursive: true });
      return {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        JOB_QUEUE: queue,
        SECRET_KEY: 'startup-test-secret-key-0123456789abcdef',
        LOG_LEVEL: 'info',
        BLOG_DIR: path.join(repoDir, 'content', 'blog'),
        WEB_DIST_DIR: path.join(workDir, 'no-web-build'),
      };
    };
    // All five spawned in one synchronous loop: the same instant, as far as a test can.
    const processes = [
      ...ports.map((port, i) =>
        launch(`serve-${i + 1}`, 'serve', { ...env(`serve-${i + 1}`), PORT: String(port) }),
      ),
      launch('worker-1', 'worker', env('worker-1')),
      launch('worker-2', 'worker', env('worker-2')),
    ];
    try {
      const deadline = Date.now() + 45_000;
      const healthy = new Set<number>();
      for (;;) {
        const dead = processes.find((p) => p.child.exitCode !== null || p.child.signalCode);
        if (dead) {
          throw new Error(`${label}: ${dead.name} exited during start-up:\n${dead.output()}`);
        }
        for (const port of ports) {
          if (!healthy.has(port) && (await healthStatus(port)) === 200) healthy.add(port);
        }
        const workersStarted = processes
          .filter((p) => p.name.startsWith('worker'))
          .every((p) => p.output().includes('"msg":"worker started"'));
        if (healthy.size === ports.length && workersStarted) break;
        if (Date.now() > deadline) {
          throw new Error(
            `${label}: not all up within 45 s:\n${processes.map((p) => `--- ${p.name}\n${p.output()}`).join('\n')}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(healthy.size, label).toBe(3);
    } finally {
      await Promise.all(processes.map((p) => p.stop()));
    }
  }

  function launch(name: string, command: 'serve' | 'worker', env: NodeJS.ProcessEnv) {
    const child: ChildProcess = spawn(process.execPath, [mainJs, command], {
      // No .env of the developer's is read.
      cwd: workDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    child.once('exit', () => running.delete(child));
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return {
      name,
      child,
      output: () => output,
      // Start-up is under test, not shutdown: end it at once.
      stop: async () => {
        if (child.exitCode === null && !child.signalCode) {
          child.kill('SIGKILL');
          await exited;
        }
      },
    };
  }
});

async function onFreshPostgres(work: (url: string) => Promise<void>): Promise<void> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL must be set for the postgres test project');
  const name = `takes_start_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await admin(base, `create database ${name}`);
  databases.add(name);
  try {
    const url = new URL(base);
    url.pathname = `/${name}`;
    await work(url.toString());
  } finally {
    await admin(base, `drop database if exists ${name} with (force)`);
    databases.delete(name);
  }
}

async function admin(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function healthStatus(port: number): Promise<number | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`, {
      signal: AbortSignal.timeout(2000),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return undefined;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}
