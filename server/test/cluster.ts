import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import pg from 'pg';
import { startLoopbackS3, type LoopbackS3 } from './s3-server';
import { TEST_SECRET_KEY } from './test-app';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '..');
const repoDir = path.resolve(serverDir, '..');

/**
 * Real Takes processes for tests that cross processes: the built server (`serve`, `worker`), as
 * deployed, on one database (a fresh PostgreSQL database or a fresh SQLite file), optionally on a
 * real S3-protocol server, all sharing one SECRET_KEY. Whatever a test leaves running is killed
 * and removed by `close()`.
 */
export interface ClusterOptions {
  dialect: 'sqlite' | 'postgres';
  queue: 'embedded' | 'pgboss';
  /** Objects on s3rver (one bucket for every process) instead of a local folder. */
  s3?: boolean;
  /** Environment every process gets on top of the defaults. */
  env?: NodeJS.ProcessEnv;
  /** The PostgreSQL server the fresh database is made on (default: TEST_DATABASE_URL's). */
  postgresServer?: string;
}

export interface ClusterProcess {
  readonly name: string;
  readonly command: 'serve' | 'worker';
  /** The HTTP port of a `serve` process. */
  readonly port: number | undefined;
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null when ended by a signal) once the process has ended. */
  readonly exited: Promise<number | null>;
  /** `http://127.0.0.1:<port><path>` of a serve process. */
  url(pathname: string): string;
  /** Resolves once a serve process answers /api/health with 200, or a worker said it started. */
  ready(timeoutMs?: number): Promise<void>;
  /** Sends the signal and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

let built: Promise<string> | undefined;

/** Bundles server/src/main.ts once per test file, as `npm run build` does. */
export function builtServerEntry(): Promise<string> {
  built ??= (async () => {
    fs.mkdirSync(path.join(serverDir, 'dist'), { recursive: true });
    const outDir = fs.mkdtempSync(path.join(serverDir, 'dist', 'cluster-test-'));
    const mainJs = path.join(outDir, 'main.js');
    const pkg = JSON.parse(fs.readFileSync(path.join(serverDir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    await build({
      entryPoints: [path.join(serverDir, 'src', 'main.ts')],
      outfile: mainJs,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      external: Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@takes/')),
      logLevel: 'warning',
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
    });
    process.once('exit', () => fs.rmSync(outDir, { recursive: true, force: true }));
    return mainJs;
  })();
  return built;
}

export class Cluster {
  readonly processes: ClusterProcess[] = [];

  private constructor(
    readonly label: string,
    readonly workDir: string,
    readonly databaseUrl: string,
    readonly s3: LoopbackS3 | undefined,
    private readonly mainJs: string,
    private readonly options: ClusterOptions,
    private readonly dropDatabase: () => Promise<void>,
  ) {}

  static async create(label: string, options: ClusterOptions): Promise<Cluster> {
    const mainJs = await builtServerEntry();
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `takes-${label}-`));
    let databaseUrl: string;
    let dropDatabase = () => Promise.resolve();
    if (options.dialect === 'postgres') {
      const fresh = await freshPostgresDatabase(label, options.postgresServer);
      databaseUrl = fresh.url;
      dropDatabase = fresh.drop;
    } else {
      databaseUrl = `sqlite:${path.join(workDir, 'takes.sqlite')}`;
    }
    const s3 = options.s3 ? await startLoopbackS3() : undefined;
    return new Cluster(label, workDir, databaseUrl, s3, mainJs, options, dropDatabase);
  }

  /** The environment of a process of this installation (also for the test's own runtime). */
  environment(name: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    const dataDir = path.join(this.workDir, name);
    fs.mkdirSync(dataDir, { recursive: true });
    const s3 = this.s3?.options;
    return {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: this.databaseUrl,
      JOB_QUEUE: this.options.queue,
      // The factories sign session cookies with the test secret: one key for every process.
      SECRET_KEY: TEST_SECRET_KEY,
      LOG_LEVEL: 'info',
      BLOG_DIR: path.join(repoDir, 'content', 'blog'),
      WEB_DIST_DIR: path.join(this.workDir, 'no-web-build'),
      ...(s3
        ? {
            STORAGE_DRIVER: 's3',
            S3_BUCKET: s3.bucket,
            S3_REGION: s3.region,
            S3_ENDPOINT: s3.endpoint,
            S3_ACCESS_KEY_ID: s3.accessKeyId,
            S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
            S3_FORCE_PATH_STYLE: 'true',
          }
        : {}),
      ...this.options.env,
      ...extra,
    };
  }

  /** Spawns a process now (it is not awaited: call `ready()`); serve processes get a free port. */
  async start(
    name: string,
    command: 'serve' | 'worker',
    env: NodeJS.ProcessEnv = {},
  ): Promise<ClusterProcess> {
    const port = command === 'serve' ? await freePort() : undefined;
    return this.spawn(name, command, port, env);
  }

  /** Spawns several processes in one synchronous loop: the same instant, as far as a test can. */
  async startTogether(
    specs: { name: string; command: 'serve' | 'worker'; env?: NodeJS.ProcessEnv }[],
  ): Promise<ClusterProcess[]> {
    const ports = await Promise.all(
      specs.map((spec) => (spec.command === 'serve' ? freePort() : Promise.resolve(undefined))),
    );
    return specs.map((spec, i) => this.spawn(spec.name, spec.command, ports[i], spec.env ?? {}));
  }

  private spawn(
    name: string,
    command: 'serve' | 'worker',
    port: number | undefined,
    env: NodeJS.ProcessEnv,
  ): ClusterProcess {
    const child = spawn(process.execPath, [this.mainJs, command], {
      // No .env of the developer's is read.
      cwd: this.workDir,
      env: this.environment(name, { ...(port ? { PORT: String(port) } : {}), ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    const label = this.label;
    const proc: ClusterProcess = {
      name,
      command,
      port,
      child,
      exited,
      output: () => output,
      url: (pathname) => {
        if (!port) throw new Error(`${name} is a worker: it has no URL`);
        return `http://127.0.0.1:${port}${pathname}`;
      },
      ready: async (timeoutMs = 45_000) => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          if (child.exitCode !== null || child.signalCode) {
            throw new Error(`${label}: ${name} exited during start-up:\n${output}`);
          }
          const up =
            command === 'serve'
              ? (await healthStatus(port ?? 0)) === 200
              : output.includes('"msg":"worker started"');
          if (up) return;
          if (Date.now() > deadline) {
            throw new Error(`${label}: ${name} not up within ${timeoutMs} ms:\n${output}`);
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      },
      kill: async (signal = 'SIGKILL') => {
        if (child.exitCode === null && !child.signalCode) child.kill(signal);
        return exited;
      },
    };
    this.processes.push(proc);
    return proc;
  }

  /** Every process's output, for a failure message. */
  outputs(): string {
    return this.processes.map((p) => `--- ${p.name}\n${p.output()}`).join('\n');
  }

  async close(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.kill('SIGKILL')));
    await this.s3?.close();
    await this.dropDatabase();
    fs.rmSync(this.workDir, { recursive: true, force: true });
  }
}

/** A new PostgreSQL database on TEST_DATABASE_URL's server, and how to drop it. */
export async function freshPostgresDatabase(
  label: string,
  server?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = server ?? process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL must be set for the postgres test project');
  const name =
    `takes_${label.replaceAll(/[^a-z0-9]/gi, '').slice(0, 16)}_${randomUUID().replaceAll('-', '').slice(0, 12)}`.toLowerCase();
  await adminQuery(base, `create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(base, `drop database if exists ${name} with (force)`),
  };
}

export async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function healthStatus(port: number): Promise<number | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`, {
      signal: AbortSignal.timeout(2000),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return undefined;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** Requests to one process of a cluster, as a browser of that origin would make them. */
export function clientOf(
  proc: ClusterProcess,
  cookie?: string,
  headers: Record<string, string> = {},
) {
  const origin = proc.url('');
  const request = (
    method: string,
    pathname: string,
    options: { json?: unknown; headers?: Record<string, string>; body?: FormData | string } = {},
  ) =>
    fetch(proc.url(pathname), {
      method,
      headers: {
        origin,
        ...headers,
        ...(cookie ? { cookie } : {}),
        ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      body: options.json !== undefined ? JSON.stringify(options.json) : options.body,
    });
  return {
    request,
    get: (pathname: string, headers?: Record<string, string>) =>
      request('GET', pathname, { headers }),
    post: (pathname: string, json: unknown = {}) => request('POST', pathname, { json }),
    /** POST /api/versions/upload as multipart: the file and text fields. */
    upload: async (file: string, fields: Record<string, string> = {}) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      form.append('audio_file', await fs.openAsBlob(file), path.basename(file));
      return request('POST', '/api/versions/upload', { body: form });
    },
    /** Polls the version's processing until it has ended; answers its last status. */
    processed: async (versionId: string, timeoutMs = 90_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const response = await request('GET', `/api/versions/${versionId}/processing`);
        const body = (await response.json()) as { status: string };
        if (body.status !== 'processing') return body;
        if (Date.now() > deadline) throw new Error(`version ${versionId} still processing`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
  };
}

/** Signs a new user up (email and password) through this process; answers its cookie header. */
export async function signUpOn(proc: ClusterProcess, email: string): Promise<string> {
  const response = await clientOf(proc).post('/api/auth/sign-up/email', {
    email,
    password: 'violet-mixdown-47',
  });
  if (response.status !== 200) {
    throw new Error(`sign-up answered ${response.status}: ${await response.text()}`);
  }
  await response.arrayBuffer();
  return cookieOf(response);
}

/** The cookie header a browser would send after this response. */
export function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}
