import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTPUT_BUFFER_BYTES } from '@takes/contract';
import { builtServerEntry, Cluster, freePort, healthStatus } from '../../test/cluster';

// `serve` and `worker` with their output on a real pipe to a real reader (cat, writing to a file),
// the way a process manager or a log shipper runs them: the reader is stopped (SIGSTOP), resumed,
// then killed, while the server is loaded with autocannon.

/** Resident memory of a process, in bytes (Linux). */
function rss(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb) * 1024;
}

/** A query string that makes each request's log line about 6 KB, so a stall piles up quickly. */
const LONG_QUERY = `?note=${'x'.repeat(6000)}`;

function load(port: number, seconds: number) {
  return autocannon({
    url: `http://127.0.0.1:${port}/api/health${LONG_QUERY}`,
    connections: 20,
    duration: seconds,
  });
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Piped {
  reader: ChildProcess;
  process: ChildProcess;
  logFile: string;
  exited: Promise<{ code: number | null; at: number }>;
}

describe('logging to a pipe whose reader stalls or goes away', () => {
  let cluster: Cluster;
  let mainJs: string;
  const started: ChildProcess[] = [];
  beforeAll(async () => {
    mainJs = await builtServerEntry();
    cluster = await Cluster.create('logstall', { dialect: 'sqlite', queue: 'embedded' });
  }, 120_000);
  afterAll(async () => {
    for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
    await cluster.close();
  });

  /** The command with its stdout on a pipe to `cat > file`. */
  function piped(name: string, command: 'serve' | 'worker', env: NodeJS.ProcessEnv): Piped {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `takes-${name}-`));
    const logFile = path.join(dir, 'out.log');
    const sink = fs.openSync(logFile, 'w');
    const reader = spawn('cat', [], { stdio: ['pipe', sink, 'ignore'] });
    fs.closeSync(sink);
    const child = spawn(process.execPath, [mainJs, command], {
      env: cluster.environment(name, env),
      stdio: ['ignore', reader.stdin ?? 'ignore', 'ignore'],
    });
    // Only the two processes hold the pipe: when cat goes, the server's writes fail (EPIPE).
    reader.stdin?.destroy();
    started.push(reader, child);
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.once('exit', (code) => resolve({ code, at: Date.now() })),
    );
    return { reader, process: child, logFile, exited };
  }

  it('serve: bounded memory while the reader stalls, the dropped lines reported when it is back, and SIGTERM ends it after the pipe broke', async () => {
    const port = await freePort();
    const serve = piped('serve', 'serve', { PORT: String(port), LOG_LEVEL: 'info' });
    const pid = serve.process.pid as number;
    await until(async () => (await healthStatus(port)) === 200, 45_000, 'serve to answer');
    await load(port, 3); // warm: the heap and the JIT settle with a reader that keeps up
    const before = rss(pid);

    serve.reader.kill('SIGSTOP');
    const stalled = await load(port, 8);
    const during = rss(pid);
    const grown = during - before;
    // Each request logs a line of about 6 KB: what an unbounded buffer would have held.
    const unbounded = stalled.requests.total * LONG_QUERY.length;
    console.log(
      `stalled: ${stalled.requests.total} requests (${Math.round(stalled.requests.average)}/s), ` +
        `RSS ${Math.round(before / 2 ** 20)} → ${Math.round(during / 2 ** 20)} MB ` +
        `(unbounded would buffer about ${Math.round(unbounded / 2 ** 20)} MB)`,
    );
    expect(stalled.errors + stalled.timeouts).toBe(0);
    expect(unbounded).toBeGreaterThan(2 * (OUTPUT_BUFFER_BYTES * 2 + 24 * 2 ** 20));
    // The buffer's bound, and room for the heap's own churn under load.
    expect(grown).toBeLessThan(OUTPUT_BUFFER_BYTES * 2 + 24 * 2 ** 20);

    serve.reader.kill('SIGCONT');
    await until(
      () =>
        /log lines were dropped while the log output was not being read/.test(
          fs.readFileSync(serve.logFile, 'utf8'),
        ),
      10_000,
      'the dropped-lines notice',
    );
    const notice = fs
      .readFileSync(serve.logFile, 'utf8')
      .split('\n')
      .find((line) => line.includes('log lines were dropped'));
    expect(JSON.parse(notice ?? '{}')).toMatchObject({ service: 'takes-serve', level: 40 });
    expect((JSON.parse(notice ?? '{}') as { dropped_lines: number }).dropped_lines).toBeGreaterThan(
      0,
    );

    // The reader goes away: writes now fail with EPIPE.
    serve.reader.kill('SIGKILL');
    await load(port, 2);
    expect(await healthStatus(port)).toBe(200);
    const signalled = Date.now();
    serve.process.kill('SIGTERM');
    const { code, at } = await serve.exited;
    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(30_000);
  }, 120_000);

  it('worker: SIGTERM ends it after its reader went away', async () => {
    const worker = piped('worker', 'worker', { LOG_LEVEL: 'info' });
    await until(
      () => fs.readFileSync(worker.logFile, 'utf8').includes('worker started'),
      45_000,
      'the worker to start',
    );
    worker.reader.kill('SIGKILL');
    const signalled = Date.now();
    worker.process.kill('SIGTERM');
    const { code, at } = await worker.exited;
    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(30_000);
  }, 90_000);
});
