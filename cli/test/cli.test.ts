import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bounce } from '@takes/contract';
import {
  apiOf,
  freePort,
  loginByEmail as login,
  scratchDirs,
  startServer,
  takes,
  waitForBounce,
  writeWav,
  type RunningServer,
} from './harness';
import { codeFrom, startTestSmtp, type TestSmtp } from '../../server/test/smtp';

interface SavedCredentials {
  server: string;
  accessToken: string;
  refreshToken: string;
  expiresAt: string;
  email?: string;
}

let smtp: TestSmtp;
let server: RunningServer;
let configDir: string;
let workDir: string;
const email = 'cli-user@example.com';
// Every temporary folder, removed after the suite even when a test fails half-way.
const scratch = scratchDirs();
const scratchDir = scratch.make;

beforeAll(async () => {
  smtp = await startTestSmtp();
  server = await startServer(smtp.url);
  configDir = scratchDir('config');
  workDir = scratchDir('work');
});

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  scratch.removeAll();
});

const run = (args: string[], dir = configDir) => takes(args, { configDir: dir });
const credentialsFile = (dir = configDir) => path.join(dir, 'credentials.json');
const readCredentials = (dir = configDir) =>
  JSON.parse(fs.readFileSync(credentialsFile(dir), 'utf8')) as SavedCredentials;

/** Signs in with an emailed code, answering the prompt the way a person would. */
const loginByEmail = (address: string, dir: string, mailNumber = 1) =>
  login(server.url, smtp, address, dir, mailNumber);

const api = <T>(urlPath: string): Promise<T> => apiOf(server.url, configDir).json<T>(urlPath);

const waitForCompleted = (repoId: string, bounceId: string) =>
  waitForBounce<Bounce>(apiOf(server.url, configDir), repoId, bounceId, 25_000);

describe('takes, before signing in', () => {
  it('prints its usage with --help, and each command its own', async () => {
    const general = await run(['--help']);
    expect(general.code).toBe(0);
    expect(general.stdout).toContain('Usage: takes COMMAND');
    const commit = await run(['commit', '--help']);
    expect(commit.code).toBe(0);
    expect(commit.stdout).toContain('Usage: takes commit --repo REPO');
  });

  it('refuses an unknown command with the usage and exit code 2', async () => {
    const result = await run(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^takes: Unknown command "frobnicate"\./);
    expect(result.stderr).toContain('Usage: takes COMMAND');
  });

  it('refuses an unknown option with the command usage', async () => {
    const result = await run(['log', '--repo', 'x', '--colour']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^takes: Unknown option '--colour'/);
    expect(result.stderr).toContain('Usage: takes log');
  });

  it('says so when not signed in', async () => {
    const result = await run(['repo', 'list', '--server', server.url]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('takes: You are not signed in. Run `takes login` first.\n');
  });

  it('names the server it cannot reach', async () => {
    const port = await freePort();
    const result = await run(['login', '--server', `http://127.0.0.1:${port}`, '--code', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `takes: Could not reach the Takes server at http://127.0.0.1:${port} (connection refused)\n`,
    );
  });

  it('refuses a wrong emailed code', async () => {
    const result = await run([
      'login',
      '--server',
      server.url,
      '--email',
      email,
      '--code',
      '000000',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('takes: Invalid or expired OTP code (HTTP 400)\n');
    expect(fs.existsSync(credentialsFile())).toBe(false);
  });

  it('refuses a wrong desktop sign-in code', async () => {
    const result = await run(['login', '--server', server.url, '--code', 'not-a-real-code']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'takes: This sign-in code is invalid, used or expired. Start the sign-in again. (HTTP 400)\n',
    );
  });

  it('stops when no code is entered', async () => {
    const result = await takes(['login', '--server', server.url], {
      configDir,
      onStderr: (_stderr, stdin) => stdin.end(),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `Open this address in your browser and approve the sign-in: ${server.url}/desktop-auth`,
    );
    expect(result.stderr).toContain('takes: No answer was entered.');
  });
});

describe('the takes package a server offers', () => {
  it('installs with npm from /downloads/takes-cli.tgz, with nothing to fetch from a registry', async () => {
    const prefix = scratchDir('npm-global');
    const url = `${server.url}/downloads/takes-cli.tgz`;
    // The registry is pointed at a closed port: the package must need nothing from it.
    const closed = await freePort();
    execFileSync(
      'npm',
      ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error', url],
      {
        env: {
          PATH: process.env.PATH,
          HOME: prefix,
          npm_config_cache: path.join(prefix, 'cache'),
          npm_config_registry: `http://127.0.0.1:${closed}/`,
        },
        stdio: 'pipe',
      },
    );
    const installed = path.join(prefix, 'bin', 'takes');
    const pkg = JSON.parse(
      fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    ) as {
      version: string;
    };
    expect(execFileSync(installed, ['--version'], { encoding: 'utf8' })).toBe(`${pkg.version}\n`);
    const help = execFileSync(installed, ['--help'], { encoding: 'utf8' });
    for (const command of ['login', 'commit', 'watch', 'pull', 'open', 'link register'])
      expect(help).toContain(`  ${command} `);
  });
});

describe('takes login, the browser way', () => {
  /** What the /desktop-auth page does for a signed-in person: approve, then hand over the code. */
  async function approveInBrowser(address: string) {
    const post = (urlPath: string, body: unknown, cookie?: string) =>
      fetch(`${server.url}${urlPath}`, {
        method: 'POST',
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(cookie ? { cookie, origin: server.url } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await post('/api/auth/magic-code/send', { email: address })).status).toBe(200);
    const code = codeFrom(await smtp.waitFor(address));
    const verified = await post('/api/auth/magic-code/verify', { email: address, code });
    expect(verified.status).toBe(200);
    const cookie = verified.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const approved = await post('/api/desktop/approve', undefined, cookie);
    const { code: oneTime } = (await approved.json()) as { code: string };
    return { cookie, oneTime };
  }

  it('completes by itself when the browser returns to takes:// (takes open hands the code over)', async () => {
    const address = 'desktop-return@example.com';
    const { oneTime } = await approveInBrowser(address);
    const dir = scratchDir('desktop-return');
    let opened: ReturnType<typeof takes> | undefined;
    const result = await takes(['login', '--server', server.url], {
      configDir: dir,
      onStderr(stderr) {
        if (opened || !stderr.includes('Paste the code shown after approval:')) return;
        // What the operating system runs for the takes:// link the browser was sent to.
        opened = takes(['open', `takes://auth-callback?code=${encodeURIComponent(oneTime)}`], {
          configDir: dir,
        });
      },
    });
    expect(opened).toBeDefined();
    expect(await opened).toMatchObject({ code: 0 });
    expect(result.stderr).toContain('Sign-in approved in the browser.');
    expect(result).toMatchObject({
      code: 0,
      stdout: `Signed in as ${address} on ${server.url}\n`,
    });
    // The hand-over point is gone with the login.
    expect(fs.existsSync(path.join(dir, 'pending-login.json'))).toBe(false);
    expect(readCredentials(dir)).toMatchObject({ server: server.url, email: address });
  });

  it('accepts the whole takes://auth-callback address pasted from the browser', async () => {
    const address = 'desktop-user@example.com';
    const { cookie, oneTime } = await approveInBrowser(address);

    const dir = scratchDir('desktop');
    let answered = false;
    const result = await takes(['login', '--server', server.url], {
      configDir: dir,
      onStderr(stderr, stdin) {
        if (answered || !stderr.includes('Paste the code shown after approval:')) return;
        answered = true;
        stdin.end(`takes://auth-callback?code=${encodeURIComponent(oneTime)}\n`);
      },
    });
    expect(result.stderr).toContain(
      `Open this address in your browser and approve the sign-in: ${server.url}/desktop-auth`,
    );
    expect(result).toMatchObject({
      code: 0,
      stdout: `Signed in as ${address} on ${server.url}\n`,
    });
    // The sign-in is listed on /settings under this computer's name.
    const devices = await fetch(`${server.url}/api/desktop/tokens`, { headers: { cookie } });
    expect(await devices.json()).toMatchObject({
      devices: [{ name: `takes CLI on ${os.hostname()}` }],
    });
  });
});

describe('takes, signed in', () => {
  let repoId = '';
  const bounceIds: string[] = [];
  const shas: string[] = [];

  beforeAll(async () => {
    const result = await loginByEmail(email, configDir);
    expect(result.stderr).toContain(`A sign-in code was sent to ${email}.`);
    expect(result.stdout).toBe(`Signed in as ${email} on ${server.url}\n`);
    expect(result.code).toBe(0);
  });

  it('saves the credentials privately', async () => {
    const saved = readCredentials();
    expect(saved).toMatchObject({ server: server.url, email });
    expect(saved.accessToken).toMatch(/^tka_/);
    expect(saved.refreshToken).toMatch(/^tkr_/);
    expect(Date.parse(saved.expiresAt)).toBeGreaterThan(Date.now());
    expect(fs.statSync(credentialsFile()).mode & 0o777).toBe(0o600);
    const whoami = await run(['whoami']);
    expect(whoami).toMatchObject({ code: 0, stdout: `${email} on ${server.url}\n` });
  });

  it('creates a repository', async () => {
    const result = await run(['repo', 'create', 'Night Drive']);
    expect(result.code).toBe(0);
    const match = /^Created repository Night Drive \((\S+)\)\n$/.exec(result.stdout);
    expect(match).not.toBeNull();
    repoId = match?.[1] ?? '';

    const duplicate = await run(['repo', 'create', 'night drive']);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toBe(
      'takes: You already have a repository with this name (HTTP 409)\n',
    );

    const log = await run(['log', '--repo', 'Night Drive']);
    expect(log).toMatchObject({ code: 0, stdout: 'No commits yet.\n' });
  });

  it('commits two bounces on one branch, with upload progress', async () => {
    for (const [index, title] of ['First take', 'Second take'].entries()) {
      const file = writeWav(path.join(workDir, `take-${index + 1}.wav`), 3);
      const result = await run([
        'commit',
        '--repo',
        'night drive',
        '--branch',
        'main',
        '-m',
        `Take ${index + 1}`,
        '--bounce',
        file,
        '--title',
        title,
      ]);
      expect(result.stderr).toContain(`Uploading take-${index + 1}.wav 100%`);
      expect(result.code).toBe(0);
      const lines = result.stdout.trim().split('\n');
      const commit = /^\[main ([0-9a-f]{12})\] Take \d$/.exec(lines[0] ?? '');
      const bounce = /^Published bounce "(.+)" (\S+) \(processing\)$/.exec(lines[1] ?? '');
      expect(commit).not.toBeNull();
      expect(bounce?.[1]).toBe(title);
      shas.push(commit?.[1] ?? '');
      bounceIds.push(bounce?.[2] ?? '');
    }
    const [first, second] = await Promise.all(bounceIds.map((id) => waitForCompleted(repoId, id)));
    expect(first?.status).toBe('completed');
    expect(second?.status).toBe('completed');
  });

  it('lists both commits with their bounces', async () => {
    const result = await run(['log', '--repo', 'Night Drive', '--branch', 'main']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(new RegExp(`^${shas[1]}  (just now|.+ ago)\\s+Take 2$`));
    expect(lines[1]).toBe('    ♪ Second take  0:03  completed');
    expect(lines[2]).toMatch(new RegExp(`^${shas[0]}  (just now|.+ ago)\\s+Take 1$`));
    expect(lines[3]).toBe('    ♪ First take  0:03  completed');

    const json = await run(['log', '--repo', repoId, '--json', '--limit', '1']);
    const commits = JSON.parse(json.stdout) as { sha: string; bounces: Bounce[] }[];
    expect(commits).toHaveLength(1);
    expect(commits[0]?.bounces.map((b) => b.id)).toEqual([bounceIds[1]]);
  });

  it('lists repositories', async () => {
    const result = await run(['repo', 'list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Night Drive {2}\S+ {2}2 commits, 2 bounces {2}(just now|.+ ago)\n$/,
    );
  });

  it('pulls the default branch into DIR/REPO/BRANCH (as the desktop pull link does)', async () => {
    const dir = scratchDir('pull');
    const result = await run(['pull', '--repo', 'NIGHT DRIVE', '--dir', dir]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/\n2 downloaded, 0 already up to date\n$/);
    const folder = path.join(dir, 'Night Drive', 'main');
    const names = [`${shas[0]} First take.wav`, `${shas[1]} Second take.wav`];
    expect(fs.readdirSync(folder).sort()).toEqual(['.takes-pull.json', ...names].sort());
    for (const [index, name] of names.entries()) {
      const uploaded = fs.readFileSync(path.join(workDir, `take-${index + 1}.wav`));
      expect(fs.readFileSync(path.join(folder, name)).equals(uploaded)).toBe(true);
    }
    const { repo } = await api<{ repo: { pull_url: string } }>(`/api/repos/${repoId}`);
    expect(repo.pull_url).toBe(`takes://pull?repo=${repoId}&branch=main`);
  });

  it('names a repository it cannot find', async () => {
    const result = await run(['log', '--repo', 'Day Drive']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'takes: No repository named "Day Drive". Create it with `takes repo create \'Day Drive\'`.\n',
    );
  });

  it('checks the file before committing anything', async () => {
    const missing = path.join(workDir, 'nope.wav');
    const result = await run(['commit', '--repo', 'Night Drive', '-m', 'x', '--bounce', missing]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`takes: File not found: ${missing}\n`);
    const folder = await run(['commit', '--repo', 'Night Drive', '-m', 'x', '--bounce', workDir]);
    expect(folder.code).toBe(1);
    expect(folder.stderr).toBe(`takes: Not a regular file: ${workDir}\n`);
    const log = await run(['log', '--repo', 'Night Drive', '--json']);
    expect(JSON.parse(log.stdout)).toHaveLength(2);
  });

  it('requires a commit message', async () => {
    const result = await run(['commit', '--repo', 'Night Drive', '--branch', 'main']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^takes: A commit message is required \(-m\)\n\nUsage: takes commit/,
    );
  });

  it("shows the server's refusal of a file that is not audio", async () => {
    const notes = path.join(workDir, 'notes.wav');
    fs.writeFileSync(notes, 'These are lyrics, not audio.\n'.repeat(100));
    const result = await run([
      'commit',
      '--repo',
      'Night Drive',
      '-m',
      'Lyrics',
      '--bounce',
      notes,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^takes: Invalid file type\. Please upload an MP3, WAV, AIFF, FLAC, or AAC file\. \(HTTP 415\)\. Commit [0-9a-f]{12} was made without the bounce\.\n$/m,
    );
  });

  it('publishes an AIFF-C bounce (as Logic and GarageBand export)', async () => {
    const file = path.join(workDir, 'Logic Bounce.aifc');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=44100:duration=2',
      '-c:a',
      'pcm_alaw',
      '-f',
      'aiff',
      file,
    ]);
    const created = await run(['repo', 'create', 'Logic Sessions']);
    expect(created.code, created.stderr).toBe(0);
    const sessions = /\((\S+)\)\n$/.exec(created.stdout)?.[1] ?? '';
    const result = await run([
      'commit',
      '--repo',
      'Logic Sessions',
      '-m',
      'AIFF',
      '--bounce',
      file,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const id = /^Published bounce "Logic Bounce" (\S+) \(processing\)$/m.exec(result.stdout)?.[1];
    expect(id).toBeDefined();
    const bounce = await waitForCompleted(sessions, id ?? '');
    expect(bounce).toMatchObject({ status: 'completed', mime: 'audio/aiff' });
    expect(bounce.duration).toBeCloseTo(2, 0);
  });

  it('resumes an interrupted bounce upload when the command is run again, without a second commit', async () => {
    // A proxy that cuts the connection once 3 MB of the upload went through, then refuses
    // connections until it is let through again: a network that dropped mid-upload.
    const target = new URL(server.url);
    let budget = 3 * 1024 * 1024;
    let down = false;
    const sockets = new Set<net.Socket>();
    const proxy = net.createServer((client) => {
      if (down) return client.destroy();
      const upstream = net.connect(Number(target.port), target.hostname);
      sockets.add(client).add(upstream);
      client.on('data', (chunk: Buffer) => {
        if (down) return;
        budget -= chunk.length;
        if (budget < 0) {
          down = true;
          for (const socket of sockets) socket.destroy();
          return;
        }
        upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => client.write(chunk));
      for (const socket of [client, upstream]) {
        socket.on('error', () => {});
        socket.on('close', () => {
          client.destroy();
          upstream.destroy();
        });
      }
    });
    const port = await freePort();
    await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
    try {
      const proxied = `http://127.0.0.1:${port}`;
      const dir = scratchDir('resume');
      fs.writeFileSync(
        credentialsFile(dir),
        JSON.stringify({ ...readCredentials(), server: proxied }),
        { mode: 0o600 },
      );
      const file = writeWav(path.join(workDir, 'long-take.wav'), 240);
      const size = fs.statSync(file).size;
      const args = ['commit', '--repo', 'Night Drive', '-m', 'Long take', '--bounce', file];
      const first = await run(args, dir);
      expect(first.code).not.toBe(0);
      expect(first.stderr).toContain('Run the same command again to resume the upload.');
      const sha = /^\[main ([0-9a-f]{12})\] Long take$/.exec(first.stdout.trim())?.[1];
      expect(sha).toBeDefined();

      down = false;
      budget = Number.POSITIVE_INFINITY;
      const second = await run(args, dir);
      expect(second.stderr, second.stdout).toMatch(/Resuming the upload of long-take\.wav at /);
      expect(second.code, second.stderr).toBe(0);
      const lines = second.stdout.trim().split('\n');
      expect(lines[0]).toBe(`[main ${sha}] Long take`);
      const bounceId = /^Published bounce "long-take" (\S+) \(processing\)$/.exec(
        lines[1] ?? '',
      )?.[1];
      expect(bounceId).toBeDefined();
      // Resumed, not restarted: the server had bytes from the first run, and the bounce is whole.
      const resumedAt = /Resuming the upload of long-take\.wav at ([\d.]+) (\w+) of/.exec(
        second.stderr,
      );
      expect(Number(resumedAt?.[1])).toBeGreaterThan(0);
      expect(resumedAt?.[2]).toBe('MB');
      const bounce = await waitForCompleted(repoId, bounceId as string);
      expect(bounce.status).toBe('completed');
      const log = await run(['log', '--repo', 'Night Drive', '--json']);
      const commits = JSON.parse(log.stdout) as { sha: string; message: string }[];
      expect(commits.filter((c) => c.message === 'Long take')).toHaveLength(1);
      expect(size).toBeGreaterThan(3 * 1024 * 1024);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  }, 90_000);

  it('refreshes an expired access token and saves the rotated pair', async () => {
    const dir = scratchDir('refresh');
    fs.copyFileSync(credentialsFile(), credentialsFile(dir));
    const before = readCredentials(dir);
    fs.writeFileSync(
      credentialsFile(dir),
      JSON.stringify({ ...before, accessToken: 'tka_revoked' }),
      { mode: 0o600 },
    );
    const result = await run(['whoami'], dir);
    expect(result).toMatchObject({ code: 0, stdout: `${email} on ${server.url}\n` });
    const after = readCredentials(dir);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.accessToken).not.toBe('tka_revoked');
  });

  it('asks to sign in again when the session cannot be refreshed', async () => {
    const dir = scratchDir('expired');
    fs.writeFileSync(
      credentialsFile(dir),
      JSON.stringify({ ...readCredentials(), accessToken: 'tka_bad', refreshToken: 'tkr_bad' }),
      { mode: 0o600 },
    );
    const result = await run(['whoami'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('takes: Your session has expired. Run `takes login` again.\n');
  });

  it('signs out', async () => {
    const dir = scratchDir('logout');
    fs.copyFileSync(credentialsFile(), credentialsFile(dir));
    expect(await run(['logout'], dir)).toMatchObject({
      code: 0,
      stdout: `Signed out of ${server.url}\n`,
    });
    expect(fs.existsSync(credentialsFile(dir))).toBe(false);
    const after = await run(['whoami'], dir);
    expect(after.code).toBe(1);
  });
});
