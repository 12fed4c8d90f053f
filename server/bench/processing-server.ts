/**
 * The processes `bench:processing` runs (the built server, and with pg-boss a separate worker),
 * and its memory figure: the server's peak RSS growth while it receives a 500 MB upload.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../src/db/database';
import { uploadWav } from './processing-client';
import {
  productionNodeFlags,
  serverEntry,
  sleep,
  startBuiltServer,
  type RunningServer,
} from './support';

const WORKER_START_TIMEOUT_MS = 60_000;

export function startServer(port: number, env: NodeJS.ProcessEnv): Promise<RunningServer> {
  return startBuiltServer(port, env, profileFlags());
}

/** BENCH_PROFILE_DIR=/some/dir: each Node process started writes a V8 CPU profile there. */
function profileFlags(): string[] {
  const dir = process.env.BENCH_PROFILE_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

/** `node server/dist/main.js worker` (with `npm start`'s Node flags, as `npm run worker`), resolved once it has registered its heartbeat. */
export async function startWorker(
  env: NodeJS.ProcessEnv,
  database: DatabaseHandle,
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [...productionNodeFlags(), ...profileFlags(), serverEntry, 'worker'],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const deadline = Date.now() + WORKER_START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the worker exited (code ${child.exitCode})`);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from queue_workers`.execute(
      database.db,
    );
    if ((rows[0]?.n ?? 0) > 0) return child;
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error('the worker did not start within 60 s');
    }
    await sleep(100);
  }
}

export async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(killer);
}

/**
 * (c) The server's peak RSS growth (sampled every 25 ms) while it receives a 500 MB upload, and
 * how long the upload took.
 */
export async function bigUploadMemory(
  work: string,
  origin: string,
  cookie: string,
  pid: number,
): Promise<{ seconds: number; baseline: number; peak: number }> {
  const big = path.join(work, 'big.wav');
  writeLargeWav(big, 500 * 1024 * 1024);
  await sleep(1000);
  const baseline = rssBytes(pid);
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssBytes(pid));
  }, 25);
  const start = performance.now();
  try {
    await uploadWav(origin, cookie, big, 'big.wav');
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - start) / 1000;
  peak = Math.max(peak, rssBytes(pid));
  fs.rmSync(big, { force: true });
  return { seconds, baseline, peak };
}

/** A valid 24-bit stereo WAV of about `bytes` bytes, written in 1 MiB blocks. */
function writeLargeWav(file: string, bytes: number): void {
  const blockAlign = 6;
  const dataSize = Math.floor((bytes - 44) / blockAlign) * blockAlign;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + dataSize, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(48000, 24);
  header.writeUInt32LE(48000 * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(24, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(dataSize, 40);
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, header);
  const block = randomBytes(1024 * 1024);
  let left = dataSize;
  while (left > 0) {
    const n = Math.min(left, block.length);
    fs.writeSync(fd, block, 0, n);
    left -= n;
  }
  fs.closeSync(fd);
}

function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb ?? 0) * 1024;
}
