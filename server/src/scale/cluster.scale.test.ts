import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAudio } from '../../test/audio-fixtures';
import { Cluster, clientOf, signUpOn, type ClusterProcess } from '../../test/cluster';
import { codeFrom, startTestSmtp, type TestSmtp } from '../../test/smtp';
import { openSse } from '../../test/sse';

const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const takesBin = path.join(repoDir, 'cli', 'bin', 'takes.js');

/**
 * Takes as it runs at scale: 2 `serve` processes (no worker inside) and 2 `worker` processes,
 * started in the same instant on PostgreSQL, s3rver and pg-boss with one SECRET_KEY. Every step
 * of a user's day crosses processes: what one process writes, the other serves.
 */
describe('2 serve + 2 worker processes on PostgreSQL, S3 and pg-boss', () => {
  let cluster: Cluster;
  let smtp: TestSmtp;
  let serveA: ClusterProcess;
  let serveB: ClusterProcess;
  let dir: string;
  let wav: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-scale-'));
    smtp = await startTestSmtp();
    cluster = await Cluster.create('scale', {
      dialect: 'postgres',
      queue: 'pgboss',
      s3: true,
      env: { SMTP_URL: smtp.url, RUN_WORKER: 'false' },
    });
    const [a, b, ...workers] = await cluster.startTogether([
      { name: 'serve-a', command: 'serve' },
      { name: 'serve-b', command: 'serve' },
      { name: 'worker-1', command: 'worker' },
      { name: 'worker-2', command: 'worker' },
    ]);
    if (!a || !b) throw new Error('no serve processes');
    [serveA, serveB] = [a, b];
    await Promise.all([a, b, ...workers].map((p) => p.ready()));
    wav = await makeAudio(dir, 'wav', 20);
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
    await smtp?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sign up on one, upload on the other, processed by a worker, played and shared on both', async () => {
    const cookie = await signUpOn(serveA, 'scale-owner@example.com');
    const onA = clientOf(serveA, cookie);
    const onB = clientOf(serveB, cookie);

    // Live updates on A hear what a worker process announces (workers publish, never listen).
    const live = await openSse(serveA.url('/api/events'), { cookie });
    const uploaded = await onB.upload(wav, { title: 'Across processes' });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const { version_id: versionId } = (await uploaded.json()) as { version_id: string };
    expect(await onA.processed(versionId)).toMatchObject({ status: 'completed' });
    await live.waitFor<{ kind: string; versionId: string }>(
      (event) => event.kind === 'version.processed' && event.versionId === versionId,
      5000,
    );
    live.close();
    // One listening connection per serve process; the workers keep none.
    const listeners = new pg.Client({ connectionString: cluster.databaseUrl });
    await listeners.connect();
    const { rows } = await listeners.query<{ n: string }>(
      `select count(*) as n from pg_stat_activity
       where datname = current_database() and query like 'listen %'`,
    );
    await listeners.end();
    // The 2 serve processes (live events) and the 2 workers (job wake-ups).
    expect(Number(rows[0]?.n)).toBe(4);

    // The same bytes through either process, with Range.
    const range = { range: 'bytes=1000-66535' };
    const [partA, partB] = await Promise.all([
      onA.get(`/api/versions/${versionId}/stream`, range),
      onB.get(`/api/versions/${versionId}/stream`, range),
    ]);
    expect([partA.status, partB.status]).toEqual([206, 206]);
    const [bytesA, bytesB] = [
      Buffer.from(await partA.arrayBuffer()),
      Buffer.from(await partB.arrayBuffer()),
    ];
    expect(bytesA.length).toBe(65_536);
    expect(bytesA.equals(bytesB)).toBe(true);

    // A share link made on one process opens and plays on the other.
    const made = await onA.post(`/api/versions/${versionId}/links`, { name: 'Label' });
    expect(made.status, await made.clone().text()).toBe(201);
    const { hash } = (await made.json()) as { hash: string };
    const visitor = clientOf(serveB);
    expect((await visitor.get(`/api/links/hash/${hash}`)).status).toBe(200);
    const shared = await visitor.get(`/api/links/hash/${hash}/audio`, range);
    expect(shared.status).toBe(206);
    expect(Buffer.from(await shared.arrayBuffer()).equals(bytesA)).toBe(true);

    // A comment posted through one is read through the other.
    const posted = await onA.post(`/api/versions/${versionId}/comments`, {
      content: 'Kick is late at 0:05',
      timestamp: 5,
    });
    expect(posted.status, await posted.clone().text()).toBe(201);
    const comments = (await (await onB.get(`/api/versions/${versionId}/comments`)).json()) as {
      content: string;
    }[];
    expect(comments.map((c) => c.content)).toEqual(['Kick is late at 0:05']);
  }, 150_000);

  it('a bounce published with the takes CLI through one process is processed and listed on the other', async () => {
    const email = 'scale-producer@example.com';
    await signUpOn(serveB, email);
    const configDir = fs.mkdtempSync(path.join(dir, 'cli-'));
    const login = await takes(['login', '--server', serveB.url(''), '--email', email], configDir);
    expect(login.code, login.stderr).toBe(0);
    const created = await takes(['repo', 'create', 'Night Drive'], configDir);
    expect(created.code, created.stderr).toBe(0);
    const commit = await takes(
      ['commit', '--repo', 'Night Drive', '-m', 'First take', '--bounce', wav, '--title', 'Take 1'],
      configDir,
    );
    expect(commit.code, commit.stderr).toBe(0);

    // The CLI's own token, issued through one process, reads through the other.
    const { accessToken } = JSON.parse(
      fs.readFileSync(path.join(configDir, 'credentials.json'), 'utf8'),
    ) as { accessToken: string };
    const onA = clientOf(serveA, undefined, { authorization: `Bearer ${accessToken}` });
    const recent = await onA.get('/api/bounces/recent?all=true&limit=10');
    expect(recent.status, await recent.clone().text()).toBe(200);
    const { bounces } = (await recent.json()) as {
      bounces: { id: string; repo_id: string; title: string }[];
    };
    expect(bounces.map((b) => b.title)).toEqual(['Take 1']);
    const [{ id, repo_id: repoId }] = bounces as [(typeof bounces)[number]];
    const deadline = Date.now() + 90_000;
    let status = 'processing';
    while (status === 'processing' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const response = await onA.get(`/api/repos/${repoId}/bounces/${id}`);
      ({
        bounce: { status },
      } = (await response.json()) as { bounce: { status: string } });
    }
    expect(status).toBe('completed');
  }, 150_000);

  it('a resumable upload started on one serve process goes on through the other (parts in the bucket)', async () => {
    const cookie = await signUpOn(serveA, 'scale-resumer@example.com');
    const long = fs.readFileSync(await makeAudio(dir, 'wav', 60, 'Long Take.wav'));
    const tusOn = (
      proc: ClusterProcess,
      method: string,
      pathname: string,
      headers = {},
      body?: Buffer,
    ) =>
      fetch(proc.url(pathname), {
        method,
        headers: { origin: proc.url(''), cookie, 'tus-resumable': '1.0.0', ...headers },
        body,
      });
    const patch = (proc: ClusterProcess, url: string, from: number, to: number) =>
      tusOn(
        proc,
        'PATCH',
        url,
        { 'upload-offset': String(from), 'content-type': 'application/offset+octet-stream' },
        long.subarray(from, to),
      );
    const offsetOn = async (proc: ClusterProcess, url: string) =>
      Number((await tusOn(proc, 'HEAD', url)).headers.get('upload-offset'));

    const created = await tusOn(serveA, 'POST', '/api/uploads', {
      'upload-length': String(long.length),
      'upload-metadata': `filename ${Buffer.from('Long Take.wav').toString('base64')}`,
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const url = created.headers.get('location') as string;
    // A: 3 MB (less than a part); B: on to 9.5 MB (a whole part and more); A: the rest.
    expect((await patch(serveA, url, 0, 3_000_000)).status).toBe(204);
    expect(await offsetOn(serveB, url)).toBe(3_000_000);
    expect((await patch(serveB, url, 3_000_000, 9_500_000)).status).toBe(204);
    expect(await offsetOn(serveA, url)).toBe(9_500_000);
    const last = await patch(serveA, url, 9_500_000, long.length);
    const body = await last.text();
    expect(last.status, body).toBe(200);
    const { version_id: versionId } = JSON.parse(body) as { version_id: string };
    expect(await clientOf(serveB, cookie).processed(versionId)).toMatchObject({
      status: 'completed',
    });
    const { qualities } = (await (
      await clientOf(serveB, cookie).get(`/api/versions/${versionId}/qualities`)
    ).json()) as { qualities: { original?: { file_size: number } } };
    expect(qualities.original?.file_size).toBe(long.length);
  }, 150_000);

  it('the per-email and per-IP sign-in limits are one budget across both processes', async () => {
    // Sign-in attempts per email: 10 per 10 minutes, whichever process answers.
    const email = 'scale-limits@example.com';
    await signUpOn(serveA, email);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      const proc = attempt % 2 === 0 ? serveA : serveB;
      const response = await clientOf(proc).post('/api/auth/sign-in/email', {
        email,
        password: 'not-the-password-1',
      });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses[10]).toBe(429);

    // Sign-in attempts per address: 20 per 10 minutes; 11 were used above.
    const perIp: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      const proc = attempt % 2 === 0 ? serveB : serveA;
      const response = await clientOf(proc).post('/api/auth/sign-in/email', {
        email: `nobody-${attempt}@example.com`,
        password: 'not-the-password-1',
      });
      await response.arrayBuffer();
      perIp.push(response.status);
    }
    expect(perIp.slice(0, 9).every((status) => status === 401)).toBe(true);
    expect(perIp[9]).toBe(429);
  }, 60_000);

  /** Runs `takes ARGS` as its own process, answering the emailed-code prompt. */
  function takes(args: string[], configDir: string) {
    const child = spawn(process.execPath, [takesBin, ...args], {
      env: { PATH: process.env.PATH, HOME: configDir, TAKES_CONFIG_DIR: configDir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let answered = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const email = args[args.indexOf('--email') + 1];
      if (answered || !email || !stderr.includes('Enter the 6-digit code from your email:')) {
        return;
      }
      answered = true;
      void smtp.waitFor(email).then((mail) => child.stdin.end(`${codeFrom(mail)}\n`));
    });
    if (!args.includes('--email')) child.stdin.end();
    return new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve, reject) => {
        child.once('error', reject);
        child.once('close', (code) => resolve({ code, stdout, stderr }));
      },
    );
  }
});
