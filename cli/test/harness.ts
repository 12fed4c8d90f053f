import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeFrom, type TestSmtp } from '../../server/test/smtp';

const cliDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = path.resolve(cliDir, '..');
const takesBin = path.join(cliDir, 'bin', 'takes.js');
const serverMain = path.join(repoRoot, 'server', 'dist', 'main.js');

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `takes-cli-${prefix}-`));
}

/** A port nobody listens on, from the range kept for these tests. */
export async function freePort(from = 18400, to = 18499): Promise<number> {
  const start = from + Math.floor(Math.random() * (to - from + 1));
  for (let i = 0; i <= to - from; i++) {
    const port = from + ((start - from + i) % (to - from + 1));
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${from}-${to}`);
}

export interface RunningServer {
  url: string;
  /** Stops the server for good and removes its data folder. */
  stop(): Promise<void>;
  /** Stops the server process (an outage), keeping its port and data folder. */
  halt(): Promise<void>;
  /** Starts the server again on the same port and data folder (after halt). */
  restart(): Promise<void>;
}

/** The built server (`node server/dist/main.js serve`) on a fresh data directory. */
export async function startServer(smtpUrl: string): Promise<RunningServer> {
  if (!fs.existsSync(serverMain)) {
    const build = spawnSync('npm', ['run', 'build', '-w', 'server'], {
      cwd: repoRoot,
      stdio: 'inherit',
    });
    if (build.status !== 0) throw new Error('building the server failed');
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = tempDir('data');
  const launch = async (): Promise<ChildProcess> => {
    const child = spawn(process.execPath, [serverMain, 'serve'], {
      // Its own directory, so a developer's .env is not picked up.
      cwd: dataDir,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: url,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        TRUST_PROXY: '127.0.0.1',
        SMTP_URL: smtpUrl,
        JOB_CONCURRENCY: '1',
        ...(process.env.FFMPEG_PATH ? { FFMPEG_PATH: process.env.FFMPEG_PATH } : {}),
        ...(process.env.FFPROBE_PATH ? { FFPROBE_PATH: process.env.FFPROBE_PATH } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    await waitForHealth(url, child, () => log);
    return child;
  };
  const halt = async (running: ChildProcess | undefined) => {
    if (running && running.exitCode === null && running.signalCode === null) {
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    }
  };
  let child: ChildProcess | undefined = await launch();
  return {
    url,
    async stop() {
      await halt(child);
      child = undefined;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    async halt() {
      await halt(child);
      child = undefined;
    },
    async restart() {
      await halt(child);
      child = await launch();
    },
  };
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${log()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  configDir: string;
  env?: Record<string, string>;
  /** Called with each stderr chunk so far; may answer a prompt by writing to stdin. */
  onStderr?: (stderr: string, stdin: NodeJS.WritableStream) => void;
}

/** Runs `takes ARGS` as its own process, the way a person would. */
export function takes(args: string[], options: RunOptions): Promise<RunResult> {
  const child = spawn(process.execPath, [takesBin, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: options.configDir,
      TAKES_CONFIG_DIR: options.configDir,
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    options.onStderr?.(stderr, child.stdin);
  });
  if (!options.onStderr) child.stdin.end();
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A `takes` process left running (`takes watch`), its output read as it comes. */
export interface TakesProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when `pattern` is in the stream's output; fails after `timeoutMs` or if it exits. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp | string, timeoutMs?: number): Promise<void>;
  /** Its exit, with everything it printed. */
  exited: Promise<RunResult>;
}

/** Starts `takes ARGS` as its own process without waiting for it to end. */
export function startTakes(args: string[], options: RunOptions): TakesProcess {
  const child = spawn(process.execPath, [takesBin, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: options.configDir,
      TAKES_CONFIG_DIR: options.configDir,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  let closed = false;
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', (chunk: Buffer) => {
    output.stdout += chunk.toString();
    changed();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString();
    changed();
  });
  const exited = new Promise<RunResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      closed = true;
      resolve({ code, stdout: output.stdout, stderr: output.stderr });
      changed();
    });
  });
  return {
    child,
    stdout: () => output.stdout,
    stderr: () => output.stderr,
    exited,
    waitFor(stream, pattern, timeoutMs = 30_000) {
      const found = () =>
        typeof pattern === 'string'
          ? output[stream].includes(pattern)
          : pattern.test(output[stream]);
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (found()) return done();
          if (closed) done(new Error(`takes exited before printing ${String(pattern)}`));
        };
        const timer = setTimeout(
          () => done(new Error(`no ${String(pattern)} on ${stream} in ${timeoutMs} ms`)),
          timeoutMs,
        );
        const done = (error?: Error) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (!error) return resolve();
          reject(
            new Error(`${error.message}\nstdout:\n${output.stdout}\nstderr:\n${output.stderr}`),
          );
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** A WAV file of a tone (16-bit mono PCM), written without ffmpeg. */
export function writeWav(
  file: string,
  seconds: number,
  sampleRate = 22_050,
  frequency = 440,
): string {
  fs.writeFileSync(file, wavBytes(seconds, sampleRate, frequency));
  return file;
}

/** The bytes of a WAV file of a tone (16-bit mono PCM); another frequency, other bytes. */
export function wavBytes(seconds: number, sampleRate = 22_050, frequency = 440): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    data.writeInt16LE(
      Math.round(Math.sin((2 * Math.PI * frequency * i) / sampleRate) * 12_000),
      i * 2,
    );
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** The temporary folders of one suite, all removed after it (even when a test fails half-way). */
export function scratchDirs() {
  const made: string[] = [];
  return {
    make: (prefix: string): string => {
      const dir = tempDir(prefix);
      made.push(dir);
      return dir;
    },
    removeAll: (): void => {
      for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `takes login` with an emailed code, answering the prompt the way a person would (the code of
 * the `mailNumber`th mail to that address).
 */
export function loginByEmail(
  serverUrl: string,
  mailbox: TestSmtp,
  address: string,
  configDir: string,
  mailNumber = 1,
): Promise<RunResult> {
  let answered = false;
  return takes(['login', '--server', serverUrl, '--email', address], {
    configDir,
    onStderr(stderr, stdin) {
      if (answered || !stderr.includes('Enter the 6-digit code from your email:')) return;
      answered = true;
      void mailbox.waitFor(address, mailNumber).then((mail) => stdin.end(`${codeFrom(mail)}\n`));
    },
  });
}

/** The API as the CLI user signed in with `configDir` sees it (their saved bearer token). */
export function apiOf(serverUrl: string, configDir: string) {
  const token = () =>
    (
      JSON.parse(fs.readFileSync(path.join(configDir, 'credentials.json'), 'utf8')) as {
        accessToken: string;
      }
    ).accessToken;
  const fetchAs = (urlPath: string) =>
    fetch(`${serverUrl}${urlPath}`, { headers: { authorization: `Bearer ${token()}` } });
  return {
    fetch: fetchAs,
    /** The JSON of a 200 answer (anything else throws). */
    async json<T>(urlPath: string): Promise<T> {
      const response = await fetchAs(urlPath);
      if (response.status !== 200)
        throw new Error(`GET ${urlPath}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
  };
}

/** Waits until a bounce is no longer processing, and answers it. */
export async function waitForBounce<B extends { status: string }>(
  api: ReturnType<typeof apiOf>,
  repoId: string,
  bounceId: string,
  timeoutMs = 30_000,
): Promise<B> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { bounce } = await api.json<{ bounce: B }>(`/api/repos/${repoId}/bounces/${bounceId}`);
    if (bounce.status !== 'processing') return bounce;
    if (Date.now() > deadline) throw new Error(`bounce ${bounceId} still processing`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
