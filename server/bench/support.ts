/**
 * What the benchmarks share: starting the built server, signing up, uploading a file as a
 * browser would (streamed multipart), and small figures helpers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const serverEntry = path.resolve(here, '..', 'dist', 'main.js');

/**
 * The Node flags `npm start` runs the server with (the root package.json's start script: a
 * larger young generation, see docs/operations.md), so a benchmark measures what runs.
 */
export function productionNodeFlags(): string[] {
  const pkg = JSON.parse(
    fs.readFileSync(path.resolve(here, '..', '..', 'package.json'), 'utf8'),
  ) as {
    scripts: Record<string, string>;
  };
  const match = /\bnode((?: --\S+)*) server\/dist\/main\.js serve/.exec(pkg.scripts.start ?? '');
  if (!match)
    throw new Error('package.json: the start script does not run server/dist/main.js serve');
  return (match[1] ?? '').split(' ').filter(Boolean);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The value at the given percentile (0–100) of the values, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** User + system CPU seconds of a process (not its children, so not ffmpeg), from /proc. */
export function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A port nobody listens on now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  child: ChildProcess;
  origin: string;
  /** SIGTERM, then SIGKILL if it has not exited within 30 s. */
  stop(): Promise<void>;
}

/**
 * `node server/dist/main.js serve` on 127.0.0.1:port with the given environment (on top of this
 * process's) and `npm start`'s Node flags, resolved once /api/health answers. `nodeArgs` go
 * before the script too (--cpu-prof).
 */
export async function startBuiltServer(
  port: number,
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
  options: { quietStdout?: boolean } = {},
): Promise<RunningServer> {
  const origin = `http://127.0.0.1:${port}`;
  const flags = [...productionNodeFlags(), ...nodeArgs];
  const child = spawn(process.execPath, [...flags, serverEntry, 'serve'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: origin, ...env },
    stdio: ['ignore', options.quietStdout ? 'ignore' : 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(killer);
  };
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited (code ${child.exitCode})`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return { child, origin, stop };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  await stop();
  throw new Error('the server did not start within 60 s');
}

/** Signs up with email and password; returns the session's Cookie header. */
export async function signUp(
  origin: string,
  email: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const response = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, ...headers },
    body: JSON.stringify({ email, password: 'violet-mixdown-47' }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return cookieHeader(response);
}

/** The Cookie header that sends back what a response set. */
export function cookieHeader(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

export interface UploadAnswer {
  versionId: string;
  projectId: string;
  branchId: string;
}

/**
 * POST /api/versions/upload as streamed multipart (the file is never held whole by the request),
 * with the text fields before the file as the web app sends them. Throws on any status but 201.
 */
export async function uploadFile(
  origin: string,
  cookie: string,
  upload: {
    fields: Record<string, string>;
    fileName: string;
    content: () => AsyncIterable<Buffer> | Iterable<Buffer>;
    headers?: Record<string, string>;
  },
): Promise<UploadAnswer> {
  const boundary = `----takesbench${Date.now()}${Math.random().toString(16).slice(2)}`;
  async function* body() {
    for (const [name, value] of Object.entries(upload.fields)) {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      );
    }
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="audio_file"; filename="${upload.fileName}"\r\nContent-Type: audio/wav\r\n\r\n`,
    );
    yield* upload.content();
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  const response = await fetch(`${origin}/api/versions/upload`, {
    method: 'POST',
    headers: {
      cookie,
      origin,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...upload.headers,
    },
    body: Readable.toWeb(Readable.from(body())) as ReadableStream,
    duplex: 'half',
  });
  if (response.status !== 201)
    throw new Error(`upload failed: ${response.status} ${await response.text()}`);
  const answer = (await response.json()) as {
    version_id: string;
    project_id: string;
    branch_id: string;
  };
  return {
    versionId: answer.version_id,
    projectId: answer.project_id,
    branchId: answer.branch_id,
  };
}
