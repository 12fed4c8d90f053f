/**
 * npm run bench:processing
 *
 * (a) Processing wall time of a 5-minute 24-bit stereo WAV uploaded through the HTTP API,
 *     as a ratio to a bare `ffmpeg -i in.wav -c:a libmp3lame -b:a 320k -f null -` of the same
 *     file in the same run (target: at most 1.2).
 * (b) The server's peak RSS growth while it receives a 500 MB upload (target: under 150 MB).
 *
 * Environment: BENCH_ROUNDS (default 5), BENCH_PROFILE_DIR (a CPU profile of the server).
 * It starts the built server (server/dist/main.js) on a free port with its own data folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { MediaRunner } from '../src/media/runner';
import { resolveMediaTools } from '../src/media/tools';
import {
  cpuSeconds,
  median,
  serverEntry,
  signUp,
  sleep,
  startBuiltServer,
  uploadFile,
  type RunningServer,
} from './support';

const PORT = Number(process.env.BENCH_PORT ?? 18299);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

async function main(): Promise<void> {
  if (!fs.existsSync(serverEntry)) throw new Error('Build first: npm run build');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-bench-'));
  const tools = resolveMediaTools({
    ffmpegPath: process.env.FFMPEG_PATH,
    ffprobePath: process.env.FFPROBE_PATH,
  });
  const runner = new MediaRunner(tools);
  console.log(
    `machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; ${await runner.version()} (${tools.source.ffmpeg})`,
  );
  let server: RunningServer | undefined;
  try {
    const wav = path.join(work, 'five-minutes.wav');
    await runner.ffmpeg(
      [
        '-y',
        '-f',
        'lavfi',
        '-i',
        'anoisesrc=d=300:c=pink:a=0.25:r=48000',
        '-f',
        'lavfi',
        '-i',
        'sine=f=220:d=300:r=48000',
        '-filter_complex',
        '[0:a][1:a]amix=inputs=2,aformat=channel_layouts=stereo',
        '-c:a',
        'pcm_s24le',
        wav,
      ],
      { timeoutMs: 300_000 },
    );
    console.log(
      `input: 5:00 of 24-bit 48 kHz stereo WAV, ${(fs.statSync(wav).size / 2 ** 20).toFixed(1)} MiB`,
    );

    server = await startServer(path.join(work, 'data'));
    const cookie = await signUp(ORIGIN, `bench${Date.now()}@example.com`);

    // Interleaved and repeated, so a noisy neighbour on a shared machine skews both sides alike.
    const bareRuns: number[] = [];
    const processingRuns: number[] = [];
    for (let run = 0; run < ROUNDS; run++) {
      const bareStart = performance.now();
      await runner.ffmpeg(['-i', wav, '-c:a', 'libmp3lame', '-b:a', '320k', '-f', 'null', '-'], {
        timeoutMs: 600_000,
      });
      bareRuns.push((performance.now() - bareStart) / 1000);

      const upload = await uploadWav(cookie, wav, 'five-minutes.wav');
      const processingStart = performance.now();
      const cpuBefore = cpuSeconds(server.child.pid ?? 0);
      for (;;) {
        const status = (await (
          await fetch(`${ORIGIN}/api/versions/${upload.versionId}/processing`, {
            headers: { cookie },
          })
        ).json()) as { status: string; error: string | null };
        if (status.status === 'completed') break;
        if (status.status === 'failed') throw new Error(`processing failed: ${status.error ?? ''}`);
        // The app polls every 3 s; 250 ms keeps the measure fine without loading the server.
        await sleep(250);
      }
      processingRuns.push((performance.now() - processingStart) / 1000);
      const serverCpu = cpuSeconds(server.child.pid ?? 0) - cpuBefore;
      console.log(
        `round ${run + 1}: bare ${bareRuns[run]?.toFixed(2)} s, processing ${processingRuns[run]?.toFixed(2)} s (server process itself used ${serverCpu.toFixed(2)} s of CPU)`,
      );
    }
    const bareSeconds = median(bareRuns);
    const processingSeconds = median(processingRuns);
    const ratio = processingSeconds / bareSeconds;

    const big = path.join(work, 'big.wav');
    writeLargeWav(big, 500 * 1024 * 1024);
    const pid = server.child.pid ?? 0;
    await sleep(1000);
    const baseline = rssBytes(pid);
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssBytes(pid));
    }, 25);
    const bigStart = performance.now();
    await uploadWav(cookie, big, 'big.wav');
    const bigSeconds = (performance.now() - bigStart) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssBytes(pid));
    const growthMb = (peak - baseline) / 2 ** 20;

    console.log('');
    const spread = (values: number[]) =>
      `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)} s`;
    const ratios = processingRuns.map((p, i) => p / (bareRuns[i] ?? NaN));
    console.log(
      `bare ffmpeg 320k encode (median of ${ROUNDS}):  ${bareSeconds.toFixed(2)} s (spread ${spread(bareRuns)})`,
    );
    console.log(
      `processing: 320k + 128k renditions, peaks, loudness (median of ${ROUNDS}): ${processingSeconds.toFixed(2)} s (spread ${spread(processingRuns)})`,
    );
    console.log(`per-round ratios:               ${ratios.map((r) => r.toFixed(2)).join(', ')}`);
    console.log(
      `ratio processing / bare:        ${ratio.toFixed(3)}   (target <= 1.2: ${ratio <= 1.2 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `500 MB upload received in:      ${bigSeconds.toFixed(2)} s (${(500 / bigSeconds).toFixed(0)} MB/s)`,
    );
    console.log(
      `server RSS: baseline ${(baseline / 2 ** 20).toFixed(1)} MiB, peak ${(peak / 2 ** 20).toFixed(1)} MiB, growth ${growthMb.toFixed(1)} MiB   (target < 150: ${growthMb < 150 ? 'met' : 'NOT met'})`,
    );
  } finally {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function startServer(dataDir: string): Promise<RunningServer> {
  return startBuiltServer(
    PORT,
    { DATA_DIR: dataDir, LOG_LEVEL: 'warn', JOB_CONCURRENCY: '1', JOB_POLL_INTERVAL_MS: '100' },
    // BENCH_PROFILE_DIR=/some/dir writes a V8 CPU profile of the server there.
    process.env.BENCH_PROFILE_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : [],
  );
}

/** Streams the file as multipart (never held in memory), like a browser would. */
function uploadWav(cookie: string, file: string, name: string) {
  return uploadFile(ORIGIN, cookie, {
    fields: { projectName: 'Benchmark' },
    fileName: name,
    content: () => fs.createReadStream(file, { highWaterMark: 1024 * 1024 }),
  });
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

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
