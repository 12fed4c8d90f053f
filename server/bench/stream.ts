/**
 * npm run bench:stream [-- --seconds 10] [-- --connections 16] [-- --nginx-workers 1]
 *
 * Streaming, side by side in one run (issue 18 §4, issue 23): the same 320 kbps rendition of a
 * 4-minute upload (≈ 9.6 MB) served by Takes (signed in, `GET /api/versions/:id/stream?quality=high`)
 * and by nginx from Debian (a generated config, `sendfile on`, on a free loopback port, run as a
 * non-daemon child and stopped afterwards):
 * - the whole file: MB/s (response bodies) Takes vs nginx, and the ratio (issue 18: ≥ 0.5×);
 * - `Range: bytes=1048576-1114111` (64 KB): req/s Takes vs nginx, and the ratio (issue 23: ≥ 0.07×);
 * - `/api/health` req/s, and the authenticated Range rate as a share of it (issue 23: ≥ 0.75×).
 * Load comes from wrk when it is installed (it is not Node, so it does not compete with the
 * server's event loop the way an in-process generator would), else from autocannon. Without
 * nginx the nginx columns say so and only Takes' figures print.
 *
 * It starts the built server (NODE_ENV=production, local storage) on a free port with its own
 * data folder, uploads a generated WAV and waits for the renditions. BENCH_PROFILE_DIR=DIR writes
 * a V8 CPU profile of the server (the whole run) there; `--only range` (or whole, health) loads
 * only that kind of request.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { MediaRunner } from '../src/media/runner';
import { resolveMediaTools } from '../src/media/tools';
import {
  cpuSeconds,
  freePort,
  signUp,
  sleep,
  startBuiltServer,
  uploadFile,
  type RunningServer,
} from './support';
import { findWrk, firstExecutable } from './wrk';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    'nginx-workers': { type: 'string', default: '1' },
    // For profiling one kind of request: e.g. `--only range` (whole, range, health).
    only: { type: 'string', default: 'whole,range,health' },
  },
});
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const nginxWorkers = Number(args['nginx-workers']);
const only = new Set(args.only.split(','));
const RANGE = 'bytes=1048576-1114111';
const RANGE_BYTES = 65_536;

const NGINX_CANDIDATES = [process.env.NGINX_PATH, '/usr/sbin/nginx', '/usr/bin/nginx'];
interface Load {
  rps: number;
  /** Responses outside 2xx/3xx, and socket errors. */
  errors: number;
}

/** wrk's "Requests/sec:" and its error lines. */
function parseWrk(output: string): Load {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? NaN);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return { rps, errors: non2xx + socketErrors };
}

async function load(
  wrk: string | undefined,
  url: string,
  headers: Record<string, string>,
): Promise<Load> {
  if (wrk) {
    const headerArgs = Object.entries(headers).flatMap(([name, value]) => [
      '-H',
      `${name}: ${value}`,
    ]);
    const threads = Math.min(2, connections);
    const run = spawnSync(
      wrk,
      [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, ...headerArgs, url],
      { encoding: 'utf8', timeout: (seconds + 60) * 1000 },
    );
    if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr || run.stdout}`);
    return parseWrk(run.stdout);
  }
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      { url, connections, duration: seconds, headers },
      (error: Error | null, res: autocannon.Result) => (error ? reject(error) : resolve(res)),
    );
  });
  return { rps: result.requests.average, errors: result.non2xx + result.errors + result.timeouts };
}

/** One request, checked: the status and the body's length must be what the run will count. */
async function check(url: string, headers: Record<string, string>, status: number, bytes: number) {
  const response = await fetch(url, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== status || body.length !== bytes)
    throw new Error(
      `${url}: ${response.status}, ${body.length} bytes (wanted ${status}, ${bytes})`,
    );
  return body;
}

interface Nginx {
  origin: string;
  version: string;
  stop(): Promise<void>;
}

async function startNginx(binary: string, root: string, work: string): Promise<Nginx> {
  const port = await freePort();
  const prefix = path.join(work, 'nginx');
  fs.mkdirSync(path.join(prefix, 'tmp'), { recursive: true });
  const conf = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(
    conf,
    [
      'daemon off;',
      `worker_processes ${nginxWorkers};`,
      `pid ${path.join(prefix, 'nginx.pid')};`,
      `error_log ${path.join(prefix, 'error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off;',
      '  sendfile on;',
      '  tcp_nopush on;',
      '  keepalive_requests 1000000;',
      `  client_body_temp_path ${path.join(prefix, 'tmp')};`,
      `  proxy_temp_path ${path.join(prefix, 'tmp')};`,
      `  fastcgi_temp_path ${path.join(prefix, 'tmp')};`,
      `  uwsgi_temp_path ${path.join(prefix, 'tmp')};`,
      `  scgi_temp_path ${path.join(prefix, 'tmp')};`,
      '  types { audio/mpeg mp3; }',
      `  server { listen 127.0.0.1:${port}; root ${root}; }`,
      '}',
      '',
    ].join('\n'),
  );
  const version = spawnSync(binary, ['-v'], { encoding: 'utf8' }).stderr.trim();
  const child: ChildProcess = spawn(
    binary,
    ['-p', prefix, '-c', conf, '-e', path.join(prefix, 'error.log')],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGQUIT');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  };
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null)
      throw new Error(
        `nginx exited (code ${child.exitCode}): ${fs.readFileSync(path.join(prefix, 'error.log'), 'utf8')}`,
      );
    try {
      await fetch(`${origin}/`);
      return { origin, version, stop };
    } catch {
      await sleep(50);
    }
  }
  await stop();
  throw new Error('nginx did not start within 5 s');
}

/** The file under `dir` whose bytes are `wanted` (the rendition as the store keeps it). */
function findStoredFile(dir: string, wanted: Buffer): string | undefined {
  const digest = createHash('sha256').update(wanted).digest('hex');
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (fs.statSync(file).size !== wanted.length) continue;
    if (createHash('sha256').update(fs.readFileSync(file)).digest('hex') === digest) return file;
  }
  return undefined;
}

const mb = (bytesPerSecond: number) => (bytesPerSecond / 1e6).toFixed(0);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-bench-stream-'));
  const tools = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  const runner = new MediaRunner(tools);
  const nginxBinary = firstExecutable(NGINX_CANDIDATES);
  const wrk = findWrk();
  console.log(
    `machine: ${os.cpus().length} cores; node ${process.version}; ffmpeg: ${await runner.version()} (${tools.source.ffmpeg}, ${tools.ffmpeg})`,
  );
  console.log(
    nginxBinary
      ? `nginx: ${spawnSync(nginxBinary, ['-v'], { encoding: 'utf8' }).stderr.trim()} (${nginxBinary}, ${nginxWorkers} worker(s), sendfile on)`
      : 'nginx: not found (apt-get install nginx-light, or NGINX_PATH): no baseline, Takes figures only',
  );
  console.log(
    `load: ${wrk ? `wrk (${wrk}), ${Math.min(2, connections)} threads` : 'autocannon (wrk not found)'}, ${connections} connections, ${seconds} s per run`,
  );

  let server: RunningServer | undefined;
  let nginx: Nginx | undefined;
  try {
    const wav = path.join(work, 'four-minutes.wav');
    await runner.ffmpeg(
      [
        '-y',
        '-f',
        'lavfi',
        '-i',
        'anoisesrc=d=240:c=pink:a=0.25:r=44100',
        '-ac',
        '2',
        '-c:a',
        'pcm_s16le',
        wav,
      ],
      { timeoutMs: 300_000 },
    );
    const port = await freePort();
    const data = path.join(work, 'data');
    // The log level production runs at (info: a line per request), written nowhere.
    server = await startBuiltServer(
      port,
      {
        NODE_ENV: 'production',
        DATA_DIR: data,
        DATABASE_URL: '',
        STORAGE_DRIVER: 'local',
        STORAGE_DIR: '',
        SECRET_KEY: 'bench-stream-secret-key-0123456789abcdef',
        LOG_LEVEL: 'info',
        MAIL_TO_LOG: 'true',
      },
      // BENCH_PROFILE_DIR=/some/dir writes a V8 CPU profile of the server there.
      process.env.BENCH_PROFILE_DIR
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
        : [],
      { quietStdout: true },
    );
    const { origin } = server;
    const cookie = await signUp(origin, `bench${Date.now()}@example.com`);
    const { versionId } = await uploadFile(origin, cookie, {
      fields: { project_name: 'Stream bench' },
      fileName: 'four-minutes.wav',
      content: () => fs.createReadStream(wav, { highWaterMark: 1 << 20 }),
    });
    for (let i = 0; ; i++) {
      const response = await fetch(`${origin}/api/versions/${versionId}/processing`, {
        headers: { cookie },
      });
      const body = (await response.json()) as { status: string; error: string | null };
      if (body.status === 'completed') break;
      if (body.status === 'failed') throw new Error(`processing failed: ${body.error ?? ''}`);
      if (i > 1200) throw new Error('processing did not finish within 10 minutes');
      await sleep(500);
    }

    const streamUrl = `${origin}/api/versions/${versionId}/stream?quality=high`;
    const whole = Buffer.from(
      await (await fetch(streamUrl, { headers: { cookie } })).arrayBuffer(),
    );
    const size = whole.length;
    console.log(`file: the 320 kbps rendition of a 4:00 upload, ${(size / 1e6).toFixed(2)} MB`);
    await check(streamUrl, { cookie }, 200, size);
    await check(streamUrl, { cookie, range: RANGE }, 206, RANGE_BYTES);

    let nginxUrl: string | undefined;
    if (nginxBinary) {
      const stored = findStoredFile(path.join(data, 'objects'), whole);
      if (!stored) throw new Error('the rendition was not found in the data folder');
      const root = path.join(work, 'nginx-root');
      fs.mkdirSync(root, { recursive: true });
      fs.copyFileSync(stored, path.join(root, 'rendition.mp3'));
      // Run as root, nginx's workers read as another user: let them reach the file.
      fs.chmodSync(work, 0o755);
      fs.chmodSync(root, 0o755);
      fs.chmodSync(path.join(root, 'rendition.mp3'), 0o644);
      nginx = await startNginx(nginxBinary, root, work);
      nginxUrl = `${nginx.origin}/rendition.mp3`;
      await check(nginxUrl, {}, 200, size);
      await check(nginxUrl, { range: RANGE }, 206, RANGE_BYTES);
    }

    // Each measurement alone on the machine: nginx and Takes never run load at the same time.
    const results: string[] = [];
    const fail = (name: string, l: Load) => {
      if (l.errors > 0) throw new Error(`${name}: ${l.errors} failed requests`);
    };

    const pid = server.child.pid as number;
    const cpuBefore = cpuSeconds(pid);
    const skipped: Load = { rps: 0, errors: 0 };
    const takesWhole = only.has('whole') ? await load(wrk, streamUrl, { cookie }) : skipped;
    const wholeCpu = cpuSeconds(pid) - cpuBefore;
    fail('Takes whole file', takesWhole);
    const nginxWhole = nginxUrl && only.has('whole') ? await load(wrk, nginxUrl, {}) : undefined;
    if (nginxWhole) fail('nginx whole file', nginxWhole);
    const takesRange = only.has('range')
      ? await load(wrk, streamUrl, { cookie, range: RANGE })
      : skipped;
    fail('Takes range', takesRange);
    const nginxRange =
      nginxUrl && only.has('range') ? await load(wrk, nginxUrl, { range: RANGE }) : undefined;
    if (nginxRange) fail('nginx range', nginxRange);
    const health = only.has('health') ? await load(wrk, `${origin}/api/health`, {}) : skipped;
    fail('health', health);

    const wholeTakes = takesWhole.rps * size;
    results.push(
      `whole file (${(size / 1e6).toFixed(1)} MB): Takes ${mb(wholeTakes)} MB/s (${takesWhole.rps.toFixed(0)} req/s)` +
        (nginxWhole
          ? ` | nginx ${mb(nginxWhole.rps * size)} MB/s | ratio ${ratio(wholeTakes, nginxWhole.rps * size)} (goal ≥ 0.50×)`
          : ' | nginx: absent'),
    );
    // Less noisy than MB/s on a shared machine: the server's own CPU time per GB it sent.
    results.push(
      `  Takes' CPU per GB sent: ${(wholeCpu / ((takesWhole.rps * size * seconds) / 1e9)).toFixed(2)} s`,
    );
    results.push(
      `64 KB Range (${RANGE}), signed in: Takes ${takesRange.rps.toFixed(0)} req/s` +
        (nginxRange
          ? ` | nginx ${nginxRange.rps.toFixed(0)} req/s | ratio ${ratio(takesRange.rps, nginxRange.rps)} (issue 23 goal ≥ 0.07×)`
          : ' | nginx: absent'),
    );
    results.push(
      `/api/health: ${health.rps.toFixed(0)} req/s | Range / health ${ratio(takesRange.rps, health.rps)} (issue 23 goal ≥ 0.75×)`,
    );
    console.log('');
    for (const line of results) console.log(line);
  } finally {
    await nginx?.stop();
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
