import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegTone } from '../../test/audio-fixtures';
import { Cluster, clientOf, signUpOn, type ClusterProcess } from '../../test/cluster';
import { S3ObjectStore } from '../storage/s3';

/**
 * Processes dying and being stopped while they work, on both queues, with the default lease
 * (30 s): nothing is lost, each version gets one set of outputs, and the time a killed worker's
 * job waits is bounded by the lease, not by the job's 15-minute time limit.
 */
describe.each(['pgboss', 'embedded'] as const)('worker faults on the %s queue', (queue) => {
  let cluster: Cluster;
  let serve: ClusterProcess;
  let cookie: string;
  let dir: string;
  let wav: string;
  let store: S3ObjectStore;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-faults-'));
    cluster = await Cluster.create(`faults-${queue}`, {
      dialect: 'postgres',
      queue,
      s3: true,
      // One job per worker, and a short grace at SIGTERM so a running job is handed back.
      env: { RUN_WORKER: 'false', JOB_CONCURRENCY: '1', JOB_SHUTDOWN_GRACE_SECONDS: '1' },
    });
    const started = await cluster.startTogether([
      { name: 'serve-1', command: 'serve' },
      { name: 'worker-1', command: 'worker' },
      { name: 'worker-2', command: 'worker' },
    ]);
    await Promise.all(started.map((p) => p.ready()));
    serve = started[0] as ClusterProcess;
    cookie = await signUpOn(serve, `faults-${queue}@example.com`);
    // Five minutes of mono audio: a few seconds of encoding, long enough to interrupt.
    wav = await ffmpegTone(path.join(dir, 'long.wav'), 300, ['-ac', '1'], 22_050);
    store = new S3ObjectStore(cluster.s3?.options ?? fail('no S3'));
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function uploadAndFindWorker(title: string) {
    const uploaded = await clientOf(serve, cookie).upload(wav, { title });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const { version_id: versionId } = (await uploaded.json()) as { version_id: string };
    // The worker running it has made its scratch folder (the original fetched, encoding started).
    const deadline = Date.now() + 30_000;
    for (;;) {
      const worker = cluster.processes.find(
        (p) =>
          p.command === 'worker' &&
          p.child.exitCode === null &&
          !p.child.signalCode &&
          scratchOf(p).some((name) => name.startsWith(`process-${versionId}`)),
      );
      if (worker) return { versionId, worker };
      if (Date.now() > deadline)
        throw new Error(`no worker took ${versionId}\n${cluster.outputs()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  function scratchOf(proc: ClusterProcess): string[] {
    const tmp = path.join(cluster.workDir, proc.name, 'tmp');
    return fs.existsSync(tmp) ? fs.readdirSync(tmp) : [];
  }

  async function expectOneSetOfOutputs(versionId: string) {
    const keys = async () =>
      (await store.list(`renditions/${versionId}/`)).map((o) => o.key).sort();
    // The FLAC ('Lossless') is stored just after 'completed'.
    const deadline = Date.now() + 60_000;
    while (!(await keys()).includes(`renditions/${versionId}/lossless.flac`)) {
      if (Date.now() > deadline)
        throw new Error(`no FLAC for ${versionId}: ${(await keys()).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await keys()).toEqual([
      `renditions/${versionId}/high.mp3`,
      `renditions/${versionId}/lossless.flac`,
      `renditions/${versionId}/standard.mp3`,
    ]);
    expect(await store.list(`peaks/${versionId}`)).toHaveLength(1);
  }

  /** How many runs of the version's processing job the queue counted. */
  async function attemptsOf(versionId: string): Promise<number> {
    const client = new pg.Client({ connectionString: cluster.databaseUrl });
    await client.connect();
    try {
      const result =
        queue === 'pgboss'
          ? await client.query<{ n: number }>(
              `select retry_count + 1 as n from pgboss.job
               where name = 'media.process-version' and data->>'versionId' = $1`,
              [versionId],
            )
          : await client.query<{ n: number }>(
              `select attempts as n from jobs
               where name = 'media.process-version' and payload::jsonb->>'versionId' = $1`,
              [versionId],
            );
      return Number(result.rows[0]?.n);
    } finally {
      await client.end();
    }
  }

  it('SIGKILL of a worker mid-encode: another worker finishes it within 60 s, with one set of outputs', async () => {
    const { versionId, worker } = await uploadAndFindWorker('Killed mid-encode');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await worker.kill('SIGKILL');
    const killedAt = Date.now();
    const result = await clientOf(serve, cookie).processed(versionId, 90_000);
    const waited = Date.now() - killedAt;
    expect(result, cluster.outputs()).toMatchObject({ status: 'completed' });
    expect(waited).toBeLessThan(60_000);
    await expectOneSetOfOutputs(versionId);
    expect(await attemptsOf(versionId)).toBe(2);
    // Its replacement comes up beside the survivor.
    await (await cluster.start('worker-3', 'worker')).ready();
  }, 150_000);

  it('SIGTERM of a worker mid-encode: it stops taking jobs, hands its job back uncounted and exits within 30 s', async () => {
    const { versionId, worker } = await uploadAndFindWorker('Stopped mid-encode');
    const stoppedAt = Date.now();
    const code = await worker.kill('SIGTERM');
    expect(code, worker.output()).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(30_000);
    expect(worker.output()).toContain('job handed back to the queue at shutdown');
    const result = await clientOf(serve, cookie).processed(versionId, 90_000);
    expect(result, cluster.outputs()).toMatchObject({ status: 'completed' });
    await expectOneSetOfOutputs(versionId);
    // The interrupted run was not counted against the job's retries.
    expect(await attemptsOf(versionId)).toBe(1);
  }, 150_000);

  it('SIGTERM of a serve process: an upload in flight finishes, new requests are refused, exit within 30 s', async () => {
    const draining = await cluster.start('serve-2', 'serve');
    await draining.ready();
    const upload = slowUpload(draining, cookie, wav);
    await upload.halfSent;
    const stoppedAt = Date.now();
    draining.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    // New connections are refused cleanly while the old request goes on.
    await expect(fetch(draining.url('/api/health'))).rejects.toThrow();
    upload.finish();
    const answer = await upload.response;
    expect(answer.status, answer.body).toBe(201);
    expect(await draining.exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(30_000);
    const { version_id: versionId } = JSON.parse(answer.body) as { version_id: string };
    expect(await clientOf(serve, cookie).processed(versionId, 90_000)).toMatchObject({
      status: 'completed',
    });
  }, 150_000);
});

/** A multipart upload that sends half the file, then waits for `finish()` to send the rest. */
function slowUpload(proc: ClusterProcess, cookie: string, file: string) {
  const boundary = `----takes${Date.now().toString(16)}`;
  const content = fs.readFileSync(file);
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nIn flight\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="audio_file"; filename="in-flight.wav"\r\n` +
      'Content-Type: audio/wav\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const half = Math.floor(content.length / 2);
  const request = http.request(proc.url('/api/versions/upload'), {
    method: 'POST',
    headers: {
      cookie,
      origin: proc.url(''),
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': head.length + content.length + tail.length,
    },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.once('error', reject);
    request.once('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
  });
  const halfSent = new Promise<void>((resolve) =>
    request.write(Buffer.concat([head, content.subarray(0, half)]), () => resolve()),
  );
  return {
    halfSent,
    response,
    finish: () => request.end(Buffer.concat([content.subarray(half), tail])),
  };
}

function fail(message: string): never {
  throw new Error(message);
}
