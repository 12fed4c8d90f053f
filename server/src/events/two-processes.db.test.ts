import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../test/built-server';
import { buildProject, buildUser, buildVersion, depsOf } from '../../test/factories';
import { openSse, type SseStream } from '../../test/sse';
import { TEST_SECRET_KEY } from '../../test/test-app';
import { testDialect } from '../../test/test-database';
import { loadConfig } from '../config';
import { openRuntime, type Runtime } from '../runtime';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '..', '..');
const repoDir = path.resolve(serverDir, '..');
const running = new Set<ChildProcess>();

/**
 * Live updates across real `serve` processes (the built server, as deployed) on one database:
 * on PostgreSQL an event recorded by one process reaches the streams of every other within 2 s.
 */
describe(`live updates across serve processes (${testDialect()})`, () => {
  let workDir: string;
  let mainJs: string;
  let databaseUrl: string;
  let freshDatabase: string | undefined;
  const streams: SseStream[] = [];
  const processes: { name: string; port: number; child: ChildProcess; output: () => string }[] = [];

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-live-'));
    mainJs = (await buildServer('live-test')).mainJs;
    if (testDialect() === 'postgres') {
      const base = process.env.TEST_DATABASE_URL;
      if (!base) throw new Error('TEST_DATABASE_URL must be set for the postgres test project');
      freshDatabase = `takes_live_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      await admin(base, `create database ${freshDatabase}`);
      const url = new URL(base);
      url.pathname = `/${freshDatabase}`;
      databaseUrl = url.toString();
    } else {
      databaseUrl = `sqlite:${path.join(workDir, 'takes.sqlite')}`;
    }
  }, 60_000);

  afterAll(async () => {
    for (const stream of streams) stream.close();
    for (const child of running) child.kill('SIGKILL');
    await Promise.all(
      [...running].map((child) => new Promise((resolve) => child.once('exit', resolve))),
    );
    if (freshDatabase)
      await admin(
        process.env.TEST_DATABASE_URL ?? '',
        `drop database if exists ${freshDatabase} with (force)`,
      );
    fs.rmSync(workDir, { recursive: true, force: true });
    if (mainJs) fs.rmSync(path.dirname(mainJs), { recursive: true, force: true });
  });

  function environment(name: string): NodeJS.ProcessEnv {
    const dataDir = path.join(workDir, name);
    fs.mkdirSync(dataDir, { recursive: true });
    return {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      JOB_QUEUE: 'embedded',
      // The factories sign session cookies with the test secret.
      SECRET_KEY: TEST_SECRET_KEY,
      LOG_LEVEL: 'info',
      BLOG_DIR: path.join(repoDir, 'content', 'blog'),
      WEB_DIST_DIR: path.join(workDir, 'no-web-build'),
    };
  }

  async function serve(name: string): Promise<number> {
    const port = await freePort();
    const child = spawn(process.execPath, [mainJs, 'serve'], {
      cwd: workDir,
      env: { ...environment(name), PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    child.once('exit', () => running.delete(child));
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    processes.push({ name, port, child, output: () => output });
    const deadline = Date.now() + 45_000;
    while ((await healthStatus(port)) !== 200) {
      if (child.exitCode !== null) throw new Error(`${name} exited:\n${output}`);
      if (Date.now() > deadline) throw new Error(`${name} not up within 45 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return port;
  }

  async function subscribe(port: number, cookie?: string): Promise<SseStream> {
    const stream = await openSse(`http://127.0.0.1:${port}/api/events`, cookie ? { cookie } : {});
    streams.push(stream);
    return stream;
  }

  it('a built serve process streams /api/events: 401 signed out, the retry hint signed in', async () => {
    const port = await serve('serve-a');
    const runtime = await openRuntime(
      loadConfig({ ...environment('test-runtime'), PORT: '1' }),
      pino({ level: 'silent' }),
    );
    try {
      const owner = await buildUser(runtime.database.db, { name: 'Olive Owner' });
      expect((await subscribe(port)).status).toBe(401);
      const stream = await subscribe(port, owner.cookie);
      expect(stream.status).toBe(200);
      await stream.waitForLine((line) => line === 'retry: 3000');
    } finally {
      await runtime.close();
    }
  }, 90_000);

  if (testDialect() === 'postgres') {
    it('a comment posted through one serve process reaches a subscriber of another within 2 s', async () => {
      const portA = processes.find((p) => p.name === 'serve-a')?.port ?? (await serve('serve-a'));
      const portB = await serve('serve-b');
      // The test's own runtime of the same installation only sets the rows up.
      const runtime: Runtime = await openRuntime(
        loadConfig({ ...environment('test-runtime'), PORT: '1' }),
        pino({ level: 'silent' }),
      );
      try {
        const { db } = runtime.database;
        const owner = await buildUser(db, { name: 'Olive Owner' });
        const { project, branch } = await buildProject(db, owner.id);
        const version = await buildVersion(depsOf({ deps: runtime }), {
          projectId: project.id,
          branchId: branch.id,
        });
        const onA = await subscribe(portA, owner.cookie);
        const onB = await subscribe(portB, owner.cookie);
        expect([onA.status, onB.status]).toEqual([200, 200]);

        const started = Date.now();
        const posted = await fetch(
          `http://127.0.0.1:${portA}/api/versions/${version.id}/comments`,
          {
            method: 'POST',
            headers: {
              cookie: owner.cookie,
              origin: `http://127.0.0.1:${portA}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ content: 'Across processes', timestamp: 5 }),
          },
        );
        expect(posted.status, await posted.clone().text()).toBe(201);
        await posted.arrayBuffer();
        const expected = {
          type: 'activity',
          kind: 'comment.posted',
          projectId: project.id,
          repoId: null,
          versionId: version.id,
        };
        const theComment = (e: { kind?: string; versionId?: string | null }) =>
          e.kind === 'comment.posted' && e.versionId === version.id;
        expect(await onB.waitFor(theComment, 2000)).toMatchObject(expected);
        expect(await onA.waitFor(theComment, 2000)).toMatchObject(expected);
        expect(Date.now() - started).toBeLessThan(2000);
      } finally {
        await runtime.close();
      }
    }, 120_000);
  }
});

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
