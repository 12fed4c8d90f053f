/**
 * npm run bench:load [-- --seconds 60] [-- --postgres postgres://postgres@127.0.0.1:5432/postgres]
 *
 * Takes under load, all at once for `--seconds` (default 60): 200 listeners streaming audio with
 * Range requests (140 signed in through a version's stream route, 60 through share links; issue
 * 51, it was 50), 5 clients each uploading a 50 MB WAV, waiting for the answer and uploading
 * again until the time is up, and 20 clients browsing the JSON endpoints the dashboard, project and version pages call.
 * `--listen-rate N` paces each listener to N requests a second (a player filling its buffer)
 * instead of asking for the next range as soon as one arrives.
 * Prints requests, errors, throughput and p50/p95/p99 per kind, the uploads, how long the
 * processing queue took to drain, and PASS/FAIL against the targets: 0 errors, API p95 < 300 ms,
 * every upload processed.
 *
 * It starts the built server (`node server/dist/main.js serve`, NODE_ENV=production: the rate
 * limits are on) on a free port with a fresh data folder: SQLite, local objects and the
 * in-process worker; with --postgres on a new database made on that server and dropped after.
 * Every listener, browser and uploader is an account of its own from an address of its own.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { endpoints } from '@takes/contract';
import { MediaRunner } from '../src/media/runner';
import { resolveMediaTools } from '../src/media/tools';
import { startTestSmtp } from '../test/smtp';
import { adminQuery } from '../test/test-database';
import { clientOf, personEmail, seed, type Seeded } from './load-seed';
import {
  allLatencies,
  describe,
  describeLabels,
  fmt,
  runPeople,
  runUploads,
  type PersonPlan,
  type UploadFigures,
} from './load-traffic';
import {
  cpuSeconds,
  freePort,
  median,
  percentile,
  serverEntry,
  sleep,
  startBuiltServer,
} from './support';

const LISTENERS_SIGNED_IN = 140;
const LISTENERS_BY_LINK = 60;
const BROWSERS = 20;
const UPLOADERS = 5;
const PROJECTS = 4;
const RANGE_BYTES = 256 * 1024;
const API_P95_TARGET_MS = 300;
const DRAIN_LIMIT_MS = 30 * 60_000;

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    postgres: { type: 'string' },
    'listen-rate': { type: 'string' },
  },
});
const seconds = Number(args.seconds);
const listenRate = args['listen-rate'] ? Number(args['listen-rate']) : undefined;
// BENCH_PROFILE_DIR=/some/dir writes a V8 CPU profile of the server there.
const profileDir = process.env.BENCH_PROFILE_DIR;
const profileArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];

const cleanups: (() => Promise<unknown> | void)[] = [];
async function cleanUp() {
  for (const step of cleanups.splice(0).reverse()) {
    try {
      await step();
    } catch (error) {
      console.error('clean-up:', error instanceof Error ? error.message : error);
    }
  }
}

async function main(): Promise<boolean> {
  if (!fs.existsSync(serverEntry)) throw new Error('Build first: npm run build');
  if (!(seconds > 0)) throw new Error('--seconds must be a positive number');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-load-'));
  cleanups.push(() => fs.rmSync(work, { recursive: true, force: true }));

  const runner = new MediaRunner(
    resolveMediaTools({
      ffmpegPath: process.env.FFMPEG_PATH,
      ffprobePath: process.env.FFPROBE_PATH,
    }),
  );
  const seedWavs = [1, 2].map((n) => path.join(work, `seed-${n}.wav`));
  const uploadWav = path.join(work, 'upload.wav');
  // Three minutes of 16-bit CD audio per seed; about 50 MB of 24-bit 48 kHz audio per upload.
  await Promise.all([
    ...seedWavs.map((file, n) => makeWav(runner, file, 180, 44100, 's16', n + 1)),
    makeWav(runner, uploadWav, 182, 48000, 's24', 3),
  ]);
  const uploadBytes = fs.readFileSync(uploadWav);

  const smtp = await startTestSmtp();
  cleanups.push(() => smtp.close());
  const databaseUrl = args.postgres ? await freshPostgres(args.postgres) : undefined;
  const adminEmail = personEmail('admin');
  const server = await startBuiltServer(
    await freePort(),
    {
      NODE_ENV: 'production',
      DATA_DIR: path.join(work, 'data'),
      SECRET_KEY: randomBytes(32).toString('hex'),
      SMTP_URL: smtp.url,
      ADMIN_EMAILS: adminEmail,
      // As behind a load balancer on this machine: each simulated person has its own address.
      TRUST_PROXY: 'loopback',
      LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    profileArgs,
  );
  cleanups.push(() => server.stop());
  const { origin } = server;

  const seedStart = performance.now();
  const world = await seed(
    origin,
    smtp,
    {
      projects: PROJECTS,
      seedWavs,
      listeners: LISTENERS_SIGNED_IN,
      browsers: BROWSERS,
      uploaders: UPLOADERS,
    },
    adminEmail,
  );
  const debug = await clientOf(origin, world.admin).call(endpoints.workspace.getDebugReport);
  console.log(
    `machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; ` +
      `database ${debug.database.dialect}; server's ffmpeg: ${debug.ffmpeg.version ?? 'none'} (${debug.ffmpeg.source})`,
  );
  console.log(
    `seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s: ${PROJECTS} projects × ` +
      `${seedWavs.length} processed 3-minute versions, share links, comments; ` +
      `${world.listeners.length + world.browsers.length + world.uploaders.length + PROJECTS} accounts`,
  );

  const health = await runPeople(
    'health',
    origin,
    [{ person: undefined, requests: [{ label: 'GET /api/health', path: '/api/health' }] }],
    5,
  );
  console.log(
    `/api/health alone, 1 connection, 5 s: p50 ${fmt(percentile(allLatencies(health), 50))}`,
  );

  console.log(
    `\nload for ${seconds} s: ${LISTENERS_SIGNED_IN + LISTENERS_BY_LINK} listeners (${RANGE_BYTES / 1024} KiB ` +
      `Range requests, ${listenRate ? `${listenRate} a second each` : 'the next as soon as one arrives'}), ${UPLOADERS} uploaders (each uploads again as soon as answered), ${BROWSERS} browsers`,
  );
  const until = Date.now() + seconds * 1000;
  const serverCpuBefore = cpuSeconds(server.child.pid ?? 0);
  const benchCpuBefore = process.cpuUsage();
  const loadStarted = performance.now();
  const [listen, browse, uploads] = await Promise.all([
    runPeople('listen', origin, listenerPlans(world), seconds, listenRate),
    runPeople('browse', origin, browserPlans(world), seconds),
    runUploads(origin, world.uploaders, uploadBytes, until),
  ]);
  const loadEnded = performance.now();
  const wall = (loadEnded - loadStarted) / 1000;
  const benchCpu = process.cpuUsage(benchCpuBefore);
  console.log(
    `CPU during the load (cores busy on average): server process ` +
      `${((cpuSeconds(server.child.pid ?? 0) - serverCpuBefore) / wall).toFixed(2)}, this load generator ` +
      `${((benchCpu.user + benchCpu.system) / 1e6 / wall).toFixed(2)}; machine load average ` +
      `${os.loadavg()[0]?.toFixed(1)} (other work on the machine counts too)`,
  );
  console.log(describe(listen));
  console.log(describe(browse));
  for (const line of describeLabels(browse)) console.log(line);
  console.log(describeUploads(uploads));

  const drained = await drain(origin, uploads);
  const drainSeconds = (performance.now() - loadEnded) / 1000;
  console.log(
    `processing: ${drained.completed} completed, ${drained.failed} failed, ${drained.waiting} unfinished; ` +
      `queue drained ${drainSeconds.toFixed(1)} s after the load ended`,
  );

  const errors =
    listen.badStatuses + listen.socketErrors + browse.badStatuses + browse.socketErrors;
  const apiP95 = percentile(allLatencies(browse), 95);
  const checks = [
    [`0 errors (${errors + uploads.errors.length})`, errors + uploads.errors.length === 0],
    [`API p95 < ${API_P95_TARGET_MS} ms (${fmt(apiP95)})`, apiP95 < API_P95_TARGET_MS],
    [
      `every upload processed (${drained.completed} of ${uploads.made.length})`,
      uploads.made.length > 0 && drained.completed === uploads.made.length,
    ],
  ] as const;
  console.log('');
  for (const [what, ok] of checks) console.log(`${ok ? 'PASS' : 'FAIL'}  ${what}`);
  return checks.every(([, ok]) => ok);
}

function listenerPlans(world: Seeded): PersonPlan[] {
  // Each listener starts somewhere in its file and reads on, wrapping at the end.
  const ranged = (size: number) => {
    let at = Math.floor(Math.random() * (size / RANGE_BYTES)) * RANGE_BYTES;
    return () => {
      const start = at;
      const end = Math.min(size, start + RANGE_BYTES) - 1;
      at = end + 1 >= size ? 0 : end + 1;
      return `bytes=${start}-${end}`;
    };
  };
  const signedIn = world.listeners.map(({ person, version }) => ({
    person,
    requests: [
      {
        label: 'stream (signed in)',
        path: `/api/versions/${version.versionId}/stream?quality=high`,
        range: ranged(version.highBytes),
      },
    ],
  }));
  const byLink = Array.from({ length: LISTENERS_BY_LINK }, (_, i) => {
    const version = world.versions[i % world.versions.length] as Seeded['versions'][number];
    return {
      person: undefined,
      requests: [
        {
          label: 'stream (share link)',
          path: `/api/links/hash/${version.shareHash}/audio`,
          range: ranged(version.sharedBytes),
        },
      ],
    };
  });
  return [...signedIn, ...byLink];
}

/** What opening the dashboard, then a project, then a version asks of the API. */
function browserPlans(world: Seeded): PersonPlan[] {
  return world.browsers.map(({ person, version }) => {
    const { projectId, versionId } = version;
    const paths = [
      '/api/auth/session',
      '/api/notifications?limit=10',
      '/api/projects',
      '/api/projects/shared',
      '/api/stats',
      `/api/projects/${projectId}`,
      `/api/projects/${projectId}/branches`,
      `/api/projects/${projectId}/activity`,
      `/api/versions/${versionId}`,
      `/api/versions/${versionId}/comments`,
      `/api/versions/${versionId}/qualities`,
    ];
    return {
      person,
      requests: paths.map((p) => ({
        label: `GET ${p.replace(projectId, ':projectId').replace(versionId, ':versionId')}`,
        path: p,
      })),
    };
  });
}

function describeUploads(uploads: UploadFigures): string {
  const s = uploads.seconds;
  const line =
    `upload     ${s.length} uploads of 50 MB, ${uploads.errors.length} errors; time per upload ` +
    `median ${median(s).toFixed(1)} s, p95 ${percentile(s, 95).toFixed(1)} s, max ${Math.max(...s).toFixed(1)} s`;
  return [line, ...uploads.errors.slice(0, 5).map((e) => `    error: ${e}`)].join('\n');
}

/** Waits until every uploaded version's processing has ended, checking each in turn. */
async function drain(origin: string, uploads: UploadFigures) {
  const waiting = new Set(uploads.made);
  let completed = 0;
  let failed = 0;
  const deadline = Date.now() + DRAIN_LIMIT_MS;
  while (waiting.size > 0 && Date.now() < deadline) {
    for (const upload of waiting) {
      const { status, error } = await clientOf(origin, upload.person).call(
        endpoints.versions.getVersionProcessing,
        { params: { versionId: upload.versionId } },
      );
      if (status !== 'completed' && status !== 'failed') continue;
      waiting.delete(upload);
      if (status === 'completed') completed++;
      else {
        failed++;
        console.log(`    processing failed: ${error ?? ''}`);
      }
    }
    if (waiting.size > 0) await sleep(1000);
  }
  return { completed, failed, waiting: waiting.size };
}

/** Pink noise under a tone, as a WAV of the given length, rate and sample format. */
async function makeWav(
  runner: MediaRunner,
  file: string,
  duration: number,
  rate: number,
  format: 's16' | 's24',
  noiseSeed: number,
) {
  await runner.ffmpeg(
    [
      '-y',
      '-f',
      'lavfi',
      '-i',
      `anoisesrc=d=${duration}:c=pink:a=0.25:r=${rate}:seed=${noiseSeed}`,
      '-f',
      'lavfi',
      '-i',
      `sine=f=${110 * noiseSeed}:d=${duration}:r=${rate}`,
      '-filter_complex',
      '[0:a][1:a]amix=inputs=2,aformat=channel_layouts=stereo',
      '-c:a',
      format === 's16' ? 'pcm_s16le' : 'pcm_s24le',
      file,
    ],
    { timeoutMs: 300_000 },
  );
}

/** A new database on the given server, dropped at clean-up; returns its URL. */
async function freshPostgres(serverUrl: string): Promise<string> {
  const name = `takes_load_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}`);
  cleanups.push(() => adminQuery(serverUrl, `drop database if exists ${name} with (force)`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

process.once('SIGINT', () => {
  void cleanUp().then(() => process.exit(130));
});

main()
  .then(async (passed) => {
    await cleanUp();
    process.exit(passed ? 0 : 1);
  })
  .catch(async (error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    await cleanUp();
    process.exit(1);
  });
