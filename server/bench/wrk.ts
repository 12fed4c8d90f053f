/**
 * Load from wrk (Debian's `wrk`), the benchmarks' generator where it is installed: it is not
 * Node, so on a 2-core machine it takes far less CPU from the server (and its database) than an
 * in-process Node generator. Its figures come from a `done` script: requests, errors and the
 * latency percentiles (p50, p95, p99) wrk itself recorded.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const WRK_CANDIDATES = [process.env.WRK_PATH, '/usr/bin/wrk', '/usr/local/bin/wrk'];

/** The first of these files that can be executed. */
export function firstExecutable(candidates: (string | undefined)[]): string | undefined {
  return candidates.find((file) => {
    if (!file) return false;
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** wrk's path (WRK_PATH or the usual places), or undefined when it is not installed. */
export function findWrk(): string | undefined {
  return firstExecutable(WRK_CANDIDATES);
}

export interface WrkFigures {
  rps: number;
  /** Responses outside 2xx/3xx, and socket errors (connect, read, write, timeout). */
  errors: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p95: number;
  p99: number;
}

const DONE_SCRIPT = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "TAKES-WRK %d %d %d %d %d %d %d\\n",
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
`;

let scriptFile: string | undefined;

/** `wrk -t… -c… -d…s` against one URL with these headers; its figures. */
export function runWrk(
  wrk: string,
  url: string,
  options: {
    connections: number;
    seconds: number;
    headers?: Record<string, string>;
    /** wrk threads: 2 unless given. */
    threads?: number;
  },
): WrkFigures {
  if (!scriptFile) {
    scriptFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'takes-wrk-')), 'done.lua');
    fs.writeFileSync(scriptFile, DONE_SCRIPT);
  }
  const headerArgs = Object.entries(options.headers ?? {}).flatMap(([name, value]) => [
    '-H',
    `${name}: ${value}`,
  ]);
  const threads = options.threads ?? Math.min(2, options.connections);
  const run = spawnSync(
    wrk,
    [
      `-t${threads}`,
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      '-s',
      scriptFile,
      ...headerArgs,
      url,
    ],
    { encoding: 'utf8', timeout: (options.seconds + 60) * 1000 },
  );
  if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr || run.stdout}`);
  const line = /TAKES-WRK ((?:\d+ ?){7})/.exec(run.stdout)?.[1];
  if (!line) throw new Error(`wrk printed no figures: ${run.stdout}`);
  const [requests = 0, durationUs = 1, non2xx = 0, socket = 0, p50 = 0, p95 = 0, p99 = 0] = line
    .trim()
    .split(' ')
    .map(Number);
  return {
    rps: requests / (durationUs / 1e6),
    errors: non2xx + socket,
    p50: p50 / 1000,
    p95: p95 / 1000,
    p99: p99 / 1000,
  };
}
