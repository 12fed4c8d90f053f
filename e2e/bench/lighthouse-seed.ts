/**
 * The Lighthouse benchmark's server and world: the built server on a free port, and an account
 * made through the HTTP API as the web app would make it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createApiClient, endpoints } from '@takes/contract';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
export const serverEntry = path.join(repoRoot, 'server', 'dist', 'main.js');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  origin: string;
  stop(): Promise<void>;
}

/** `node server/dist/main.js serve` on 127.0.0.1 with the given environment, once it answers. */
export async function startServer(env: NodeJS.ProcessEnv): Promise<RunningServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [serverEntry, 'serve'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: origin, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
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
      if ((await fetch(`${origin}/api/health`)).ok) return { origin, stop };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  await stop();
  throw new Error('the server did not start within 60 s');
}

/** Signs up with email and password; returns the session's Cookie header. */
async function signUp(origin: string, email: string): Promise<string> {
  const response = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password: 'violet-mixdown-47' }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/** A short stereo WAV of a sine tone (its own frequency, so every upload is its own audio). */
async function toneWav(dir: string, index: number): Promise<string> {
  const file = path.join(dir, `tone-${index + 1}.wav`);
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${220 + index * 7}:duration=3:sample_rate=44100`,
    '-ac',
    '2',
    '-y',
    file,
  ]);
  return file;
}

/**
 * One account with `projects` projects (each a branch and a processed version, uploaded through
 * the API) and a share link to the first project's version. Returns its session cookie, the first
 * project and the link's key.
 */
export async function seedAccount(origin: string, wavDir: string, projects: number) {
  const cookie = await signUp(origin, `lighthouse-${Date.now()}@bench.example.com`);
  const api = createApiClient({ baseUrl: origin, headers: () => ({ cookie, origin }) });
  const uploaded: { version_id: string; project_id: string }[] = [];
  for (let i = 0; i < projects; i++) {
    const wav = await toneWav(wavDir, i);
    const form = new FormData();
    form.append('project_name', `Lighthouse project ${String(i + 1).padStart(2, '0')}`);
    form.append(
      'audio_file',
      new Blob([fs.readFileSync(wav)], { type: 'audio/wav' }),
      `take-${i + 1}.wav`,
    );
    const response = await fetch(`${origin}/api/versions/upload`, {
      method: 'POST',
      headers: { cookie, origin },
      body: form,
    });
    if (response.status !== 201)
      throw new Error(`upload failed: ${response.status} ${await response.text()}`);
    uploaded.push((await response.json()) as { version_id: string; project_id: string });
  }
  // The server processes uploads in the background: wait for every version.
  const deadline = Date.now() + 600_000;
  for (const { version_id: versionId } of uploaded) {
    for (;;) {
      const { status } = await api.call(endpoints.versions.getVersionProcessing, {
        params: { versionId },
      });
      if (status === 'completed') break;
      if (status === 'failed') throw new Error(`processing ${versionId} failed`);
      if (Date.now() > deadline) throw new Error('processing did not finish within 10 minutes');
      await sleep(300);
    }
  }
  const first = uploaded[0];
  if (!first) throw new Error('nothing was uploaded');
  const link = await api.call(endpoints.sharing.createShareLink, {
    params: { versionId: first.version_id },
    body: { name: 'Lighthouse listeners' },
  });
  return { cookie, projectId: first.project_id, shareHash: link.hash };
}
