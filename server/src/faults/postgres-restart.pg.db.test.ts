import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAudio } from '../../test/audio-fixtures';
import { Cluster, healthStatus, type ClusterProcess } from '../../test/cluster';
import { buildUser, type BuiltUser } from '../../test/factories';
import { startOwnPostgres, type OwnPostgres } from '../../test/own-postgres';
import { eventually } from '../../test/api';
import { openDatabase } from '../db/database';

/**
 * PostgreSQL restarted under a running installation (1 serve with RUN_WORKER=false, 1 worker,
 * pg-boss, S3), on a PostgreSQL server of the test's own so the machine's shared one is never
 * touched: the processes stay up and reconnect, and a job that was running when the server went
 * away still ends with its version completed.
 */
describe('PostgreSQL restarted (runs on PostgreSQL only: *.pg.db.test.ts)', () => {
  let postgres: OwnPostgres;
  let cluster: Cluster;
  let serve: ClusterProcess;
  let worker: ClusterProcess;
  let owner: BuiltUser;
  let dir: string;
  let longWav: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-pg-restart-'));
    postgres = await startOwnPostgres();
    cluster = await Cluster.create('pgrestart', {
      dialect: 'postgres',
      queue: 'pgboss',
      s3: true,
      postgresServer: postgres.url,
      env: { RUN_WORKER: 'false' },
    });
    serve = await cluster.start('serve', 'serve');
    await serve.ready();
    worker = await cluster.start('worker', 'worker');
    await worker.ready();
    const database = openDatabase({ dialect: 'postgres', url: cluster.databaseUrl });
    try {
      owner = await buildUser(database.db);
    } finally {
      await database.destroy();
    }
    // Long enough that its processing is still running when the restart comes.
    longWav = await makeAudio(dir, 'wav', 150, 'Long Take.wav');
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
    await postgres?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('while idle: the processes reconnect; health and the API work again without a restart of Takes', async () => {
    expect(await healthStatus(serve.port ?? 0)).toBe(200);
    await postgres.restart();
    await until(async () => (await healthStatus(serve.port ?? 0)) === 200, 20_000);
    const projects = await call('GET', '/api/projects');
    expect(projects.status, await projects.text()).toBe(200);
    // The live-events LISTEN connection (its own, outside the pool) is back too.
    await until(
      () => Promise.resolve(serve.output().includes('live events: listening again')),
      20_000,
    );
    expectAlive();
  }, 60_000);

  it('while processing: the job finishes and its version ends completed', async () => {
    const upload = await uploadFile(longWav);
    expect(upload.status, await upload.clone().text()).toBe(201);
    const { version_id: versionId } = (await upload.json()) as { version_id: string };
    // The restart comes once the worker has taken the job (pg-boss marks it active).
    await until(async () => (await jobStates()).includes('active'), 30_000);
    await postgres.restart();
    // Back before the job ends: the restart came in the middle of it.
    expect(await processing(versionId)).toBe('processing');
    await until(async () => (await processing(versionId)) === 'completed', 60_000);
    expectAlive();
    // pg-boss marks the job done just after its handler has returned.
    await until(async () => (await jobStates()).join() === 'completed', 20_000);
  }, 120_000);

  /** `eventually`, with what the processes said when it fails. */
  async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    await eventually(check, timeoutMs).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${cluster.outputs().slice(-6000)}`);
    });
  }

  function expectAlive(): void {
    for (const proc of [serve, worker]) {
      expect(proc.child.exitCode, `${proc.name} exited:\n${cluster.outputs()}`).toBeNull();
      expect(proc.child.signalCode).toBeNull();
    }
  }

  function call(method: string, pathname: string, body?: FormData): Promise<Response> {
    return fetch(serve.url(pathname), {
      method,
      headers: { cookie: owner.cookie, origin: serve.url('') },
      ...(body ? { body } : {}),
      signal: AbortSignal.timeout(20_000),
    });
  }

  function uploadFile(file: string): Promise<Response> {
    const form = new FormData();
    form.append('audio_file', new Blob([fs.readFileSync(file)]), path.basename(file));
    return call('POST', '/api/versions/upload', form);
  }

  async function processing(versionId: string): Promise<string | undefined> {
    try {
      const response = await call('GET', `/api/versions/${versionId}/processing`);
      return ((await response.json()) as { status?: string }).status;
    } catch {
      return undefined;
    }
  }

  async function jobStates(): Promise<string[]> {
    const client = new pg.Client({ connectionString: cluster.databaseUrl });
    try {
      await client.connect();
      const { rows } = await client.query<{ state: string }>(
        "select state from pgboss.job where name = 'media.process-version' order by created_on",
      );
      return rows.map((row) => row.state);
    } catch {
      return [];
    } finally {
      await client.end().catch(() => undefined);
    }
  }
});
