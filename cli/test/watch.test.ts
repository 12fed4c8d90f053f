import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bounce } from '@takes/contract';
import {
  apiOf,
  freePort,
  loginByEmail,
  scratchDirs,
  startServer,
  startTakes,
  takes,
  waitForBounce,
  wavBytes,
  writeWav,
  type RunningServer,
  type TakesProcess,
} from './harness';
import { startTestSmtp, type TestSmtp } from '../../server/test/smtp';

// `takes watch` against the built server, as real processes: files are written into a folder
// the way a DAW exports them, and what the server ends up with is checked through `takes log`.

interface LoggedCommit {
  sha: string;
  message: string | null;
  bounces: Bounce[];
}

const REPO = 'Exports';
const email = 'watch-user@example.com';
let smtp: TestSmtp;
let server: RunningServer;
let configDir: string;
let repoId = '';
const scratch = scratchDirs();
const scratchDir = scratch.make;
const running = new Set<TakesProcess>();

beforeAll(async () => {
  smtp = await startTestSmtp();
  server = await startServer(smtp.url);
  configDir = scratchDir('watch-config');
  const login = await loginByEmail(server.url, smtp, email, configDir);
  expect(login.code, login.stderr).toBe(0);
  const created = await run(['repo', 'create', REPO]);
  expect(created.code, created.stderr).toBe(0);
  repoId = /\((\S+)\)\n$/.exec(created.stdout)?.[1] ?? '';
});

afterAll(async () => {
  for (const watcher of running) watcher.child.kill('SIGKILL');
  await Promise.all([...running].map((watcher) => watcher.exited));
  await server?.stop();
  await smtp?.close();
  scratch.removeAll();
});

const run = (args: string[], dir = configDir) => takes(args, { configDir: dir });

/** Starts `takes watch DIR --repo Exports …` and waits until it says it is watching. */
async function startWatch(dir: string, extra: string[] = [], config = configDir) {
  const watcher = startTakes(['watch', dir, '--repo', REPO, ...extra], { configDir: config });
  running.add(watcher);
  void watcher.exited.then(() => running.delete(watcher));
  await watcher.waitFor('stdout', /^Watching .+\n/m);
  return watcher;
}

/** Ctrl-C, and its exit. */
async function interrupt(watcher: TakesProcess) {
  watcher.child.kill('SIGINT');
  return watcher.exited;
}

async function commits(): Promise<LoggedCommit[]> {
  const log = await run(['log', '--repo', REPO, '--branch', 'main', '--json', '--limit', '200']);
  expect(log.code, log.stderr).toBe(0);
  return JSON.parse(log.stdout) as LoggedCommit[];
}

/** The commits made for a file name, by the default message `Bounce "NAME" (DATE TIME)`. */
async function commitsFor(name: string): Promise<LoggedCommit[]> {
  return (await commits()).filter((commit) => commit.message?.startsWith(`Bounce "${name}" (`));
}

const published = (stdout: string, name?: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith(name === undefined ? 'Published ' : `Published "${name}"`));

const linesWith = (text: string, part: string) =>
  text.split('\n').filter((line) => line.includes(part));

async function until(check: () => boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const waitForCompleted = (bounceId: string) =>
  waitForBounce<Bounce>(apiOf(server.url, configDir), repoId, bounceId, 25_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('takes watch, given bad input', () => {
  it('is listed by takes --help and has its own usage', async () => {
    const general = await run(['--help']);
    expect(general.stdout).toMatch(/^ {2}watch +Publish each new audio file in a folder/m);
    const usage = await run(['watch', '--help']);
    expect(usage).toMatchObject({ code: 0 });
    expect(usage.stdout).toContain('Usage: takes watch DIR --repo REPO');
  });

  it('refuses a command line without a folder, without --repo, or with a bad --settle', async () => {
    const dir = scratchDir('watch-usage');
    const noDir = await run(['watch', '--repo', REPO]);
    expect(noDir.code).toBe(2);
    expect(noDir.stderr).toMatch(
      /^takes: A folder to watch is required \(DIR\)\n\nUsage: takes watch DIR/,
    );
    const noRepo = await run(['watch', dir]);
    expect(noRepo.code).toBe(2);
    expect(noRepo.stderr).toMatch(/^takes: A repository is required \(--repo\)\n\nUsage:/);
    for (const settle of ['soon', '0', '-1', '']) {
      const bad = await run(['watch', dir, '--repo', REPO, `--settle=${settle}`]);
      expect(bad.code, settle).toBe(2);
      expect(bad.stderr).toMatch(/^takes: --settle must be /);
    }
  });

  it('names a folder that is missing or is a file, and a repository it cannot find', async () => {
    const dir = scratchDir('watch-bad');
    const missing = path.join(dir, 'nope');
    expect(await run(['watch', missing, '--repo', REPO])).toMatchObject({
      code: 1,
      stderr: `takes: Folder not found: ${missing}\n`,
    });
    const file = writeWav(path.join(dir, 'a.wav'), 0.1);
    expect(await run(['watch', file, '--repo', REPO])).toMatchObject({
      code: 1,
      stderr: `takes: Not a folder: ${file}\n`,
    });
    const unknown = await run(['watch', dir, '--repo', 'No Such Repo']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^takes: No repository named "No Such Repo"\./);
  });
});

describe('takes watch, publishing a folder', () => {
  let folder: string;
  let watcher: TakesProcess;

  beforeAll(() => {
    folder = scratchDir('watch-exports');
  });

  it('publishes a WAV written in 5 chunks over 3 seconds once, after it has settled', async () => {
    // The default settle time (2 s) is longer than the gaps between the writes.
    watcher = await startWatch(folder);
    expect(watcher.stdout()).toMatch(
      new RegExp(`^Watching .+: new audio files are published to ${REPO} on main\\.`),
    );
    const name = 'Night Drive v3.wav';
    const file = path.join(folder, name);
    const bytes = wavBytes(3, 22_050, 440);
    const part = Math.ceil(bytes.length / 5);
    for (let i = 0; i < 5; i++) {
      if (i > 0) await sleep(750);
      fs.appendFileSync(file, bytes.subarray(i * part, (i + 1) * part));
    }
    // Nothing was published while the file was being written.
    expect(published(watcher.stdout())).toEqual([]);

    await watcher.waitFor('stdout', /^Published "Night Drive v3\.wav" as [0-9a-f]{12} on main\n/m);
    expect(watcher.stderr()).toContain(`Uploading ${name} 100%`);
    const mine = await commitsFor(name);
    expect(mine).toHaveLength(1);
    const [commit] = mine;
    expect(commit?.message).toMatch(/^Bounce "Night Drive v3\.wav" \(\d{4}-\d\d-\d\d \d\d:\d\d\)$/);
    expect(published(watcher.stdout())).toEqual([
      `Published "${name}" as ${commit?.sha.slice(0, 12)} on main`,
    ]);
    expect(commit?.bounces).toHaveLength(1);
    expect(commit?.bounces[0]?.title).toBe('Night Drive v3');
    // The whole file, not the part there was after the first writes.
    const bounce = await waitForCompleted(commit?.bounces[0]?.id ?? '');
    expect(bounce.status).toBe('completed');
    expect(bounce.duration).toBeCloseTo(3, 0);
  });

  it('does not publish a renamed file, a copy or a touched file again', async () => {
    const before = (await commits()).length;
    fs.renameSync(path.join(folder, 'Night Drive v3.wav'), path.join(folder, 'Night Drive.wav'));
    await watcher.waitFor(
      'stderr',
      /^Skipped Night Drive\.wav: the same audio as "Night Drive v3\.wav", already published as [0-9a-f]{12}\.\n/m,
    );
    fs.copyFileSync(path.join(folder, 'Night Drive.wav'), path.join(folder, 'Copy.wav'));
    await watcher.waitFor('stderr', /^Skipped Copy\.wav: the same audio/m);
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(folder, 'Night Drive.wav'), later, later);
    await until(
      () => linesWith(watcher.stderr(), 'Skipped Night Drive.wav:').length === 2,
      'the touched file to be looked at',
    );
    expect(published(watcher.stdout())).toHaveLength(1);
    expect(await commits()).toHaveLength(before);
  });

  it('refuses a text file named .wav with one line and keeps watching', async () => {
    fs.writeFileSync(path.join(folder, 'lyrics.wav'), 'Night drive, city lights\n'.repeat(200));
    await watcher.waitFor('stderr', /^Skipped lyrics\.wav: not an audio file \(WAV, /m);
    writeWav(path.join(folder, 'After Lyrics.wav'), 1, 22_050, 523.25);
    await watcher.waitFor('stdout', /^Published "After Lyrics\.wav" as [0-9a-f]{12} on main\n/m);
    expect(linesWith(watcher.stderr(), 'lyrics.wav')).toHaveLength(1);
    expect(await commitsFor('lyrics.wav')).toHaveLength(0);
    expect(await commitsFor('After Lyrics.wav')).toHaveLength(1);
  });

  it('ignores hidden and temporary files', async () => {
    for (const name of ['.hidden.wav', 'export.wav.tmp', 'export.wav.part', '~lock.wav'])
      writeWav(path.join(folder, name), 0.5, 22_050, 600 + name.length);
    // A file written after them, published once they would have been.
    writeWav(path.join(folder, 'Marker.wav'), 0.5, 22_050, 700);
    await watcher.waitFor('stdout', /^Published "Marker\.wav"/m);
    expect(published(watcher.stdout()).map((line) => /"(.+)"/.exec(line)?.[1])).toEqual([
      'Night Drive v3.wav',
      'After Lyrics.wav',
      'Marker.wav',
    ]);
  });

  it('stops at once on Ctrl-C when idle, with exit code 0', async () => {
    const started = Date.now();
    const result = await interrupt(watcher);
    expect(result.code, result.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.stderr).toContain('Stopped watching.');
  });

  it('remembers what it published: started again, it publishes only what is new', async () => {
    const stateFile = path.join(configDir, 'watch-state.json');
    expect(fs.statSync(stateFile).mode & 0o777).toBe(0o600);
    const state = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as {
      watches: Record<string, { folder: string; files: Record<string, { file: string }> }>;
    };
    const entries = Object.values(state.watches).filter(
      (entry) => entry.folder === fs.realpathSync(folder),
    );
    expect(entries).toHaveLength(1);
    expect(
      Object.values(entries[0]?.files ?? {})
        .map((file) => file.file)
        .sort(),
    ).toEqual(['After Lyrics.wav', 'Marker.wav', 'Night Drive v3.wav']);

    const before = (await commits()).length;
    // Exported while no watch was running: published when the watch starts.
    writeWav(path.join(folder, 'While Away.wav'), 1, 22_050, 659.25);
    const again = await startWatch(folder, ['--settle', '0.5']);
    writeWav(path.join(folder, 'New Idea.wav'), 1, 22_050, 783.99);
    await again.waitFor('stdout', /^Published "New Idea\.wav"/m);
    // The files found at the start were looked at first; only the new one was published.
    expect(published(again.stdout()).map((line) => /"(.+)"/.exec(line)?.[1])).toEqual([
      'While Away.wav',
      'New Idea.wav',
    ]);
    expect(await commits()).toHaveLength(before + 2);
    expect((await interrupt(again)).code).toBe(0);
  });
});

describe('takes watch, with its output on a pipe whose reader went away', () => {
  it('keeps publishing without printing, and SIGTERM still ends it with exit code 0', async () => {
    const folder = scratchDir('watch-broken-pipe');
    const watcher = await startWatch(folder, ['--settle', '0.5']);
    const exit = new Promise<number | null>((resolve) =>
      watcher.child.once('exit', (code) => resolve(code)),
    );
    // The reader closes both pipes: every write from now on fails with EPIPE.
    watcher.child.stdout?.destroy();
    watcher.child.stderr?.destroy();
    writeWav(path.join(folder, 'Unread Take.wav'), 1, 22_050, 330);
    let published: LoggedCommit[] = [];
    const deadline = Date.now() + 30_000;
    while (published.length === 0 && Date.now() < deadline) {
      published = (await commitsFor('Unread Take.wav')).filter((c) => c.bounces.length === 1);
      if (published.length === 0) await sleep(250);
    }
    expect(published).toHaveLength(1);
    const signalled = Date.now();
    watcher.child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(30_000);
  }, 60_000);
});

describe('takes watch, when the server goes away', () => {
  it('keeps a file while the server is down and publishes it once the server is back', async () => {
    const folder = scratchDir('watch-outage');
    const watcher = await startWatch(folder, ['--settle', '0.5']);
    await server.halt();
    try {
      writeWav(path.join(folder, 'Offline Take.wav'), 1, 22_050, 880);
      await watcher.waitFor(
        'stderr',
        /^Offline: Could not reach the Takes server at .+\. 1 file waits; /m,
      );
    } finally {
      await server.restart();
    }
    await watcher.waitFor(
      'stdout',
      /^Published "Offline Take\.wav" as [0-9a-f]{12} on main\n/m,
      60_000,
    );
    expect(watcher.stderr()).toMatch(/^Back online: publishing 1 queued file\.\n/m);
    expect(linesWith(watcher.stderr(), 'Offline:')).toHaveLength(1);
    const mine = await commitsFor('Offline Take.wav');
    expect(mine).toHaveLength(1);
    expect(mine[0]?.bounces).toHaveLength(1);
    expect((await interrupt(watcher)).code).toBe(0);
  }, 90_000);
});

describe('takes watch, stopped during an upload', () => {
  let proxy: net.Server;
  let proxyConfig: string;
  const sockets = new Set<net.Socket>();
  /** The network is down: connections are cut at once. */
  let down = false;

  // A slow network (about 1 MB/s) in front of the server, so that an upload takes seconds.
  beforeAll(async () => {
    const target = new URL(server.url);
    proxy = net.createServer((client) => {
      if (down) return client.destroy();
      const upstream = net.connect(Number(target.port), target.hostname);
      sockets.add(client).add(upstream);
      client.on('data', (chunk: Buffer) => {
        upstream.write(chunk);
        client.pause();
        setTimeout(() => client.resume(), Math.ceil(chunk.length / 1000));
      });
      upstream.on('data', (chunk: Buffer) => client.write(chunk));
      for (const socket of [client, upstream]) {
        socket.on('error', () => {});
        socket.on('close', () => {
          sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
    });
    const port = await freePort();
    await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
    proxyConfig = scratchDir('watch-slow');
    const saved = JSON.parse(
      fs.readFileSync(path.join(configDir, 'credentials.json'), 'utf8'),
    ) as Record<string, unknown>;
    fs.writeFileSync(
      path.join(proxyConfig, 'credentials.json'),
      JSON.stringify({ ...saved, server: `http://127.0.0.1:${port}` }),
      { mode: 0o600 },
    );
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => proxy?.close(resolve));
  });

  it('finishes the current upload on Ctrl-C, then exits 0', async () => {
    const folder = scratchDir('watch-stop');
    const watcher = await startWatch(folder, ['--settle', '0.5'], proxyConfig);
    // About 5 MB: some seconds through the slow network.
    writeWav(path.join(folder, 'Long Take.wav'), 60, 44_100, 330);
    await watcher.waitFor('stderr', /^Uploading Long Take\.wav [1-9]\d*% /m);
    const result = await interrupt(watcher);
    expect(result.stderr).toMatch(
      /^Finishing the current upload \(Long Take\.wav\) before stopping; press Ctrl-C again to stop at once\.\n/m,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Uploading Long Take.wav 100%');
    expect(published(result.stdout, 'Long Take.wav')).toHaveLength(1);
    const mine = await commitsFor('Long Take.wav');
    expect(mine).toHaveLength(1);
    expect(mine[0]?.bounces).toHaveLength(1);
  }, 60_000);

  it('stops at once on a second Ctrl-C; the next watch resumes the upload onto the same commit', async () => {
    const folder = scratchDir('watch-abort');
    const first = await startWatch(folder, ['--settle', '0.5'], proxyConfig);
    writeWav(path.join(folder, 'Cut Take.wav'), 60, 44_100, 392);
    await first.waitFor('stderr', /^Uploading Cut Take\.wav [1-9]\d*% /m);
    first.child.kill('SIGINT');
    await first.waitFor('stderr', 'Finishing the current upload (Cut Take.wav)');
    const stopped = await interrupt(first);
    expect(stopped.code).toBe(130);
    expect(published(stopped.stdout)).toEqual([]);
    const made = await commitsFor('Cut Take.wav');
    expect(made).toHaveLength(1);
    expect(made[0]?.bounces).toHaveLength(0);
    // Saved as a CLI from before the snake_case rename saved its tries (repoId, commitSha,
    // commitBranch): it is found and resumed all the same.
    const saved = path.join(proxyConfig, 'uploads.json');
    const tries = fs.readFileSync(saved, 'utf8');
    expect(tries).toContain('commit_sha');
    fs.writeFileSync(
      saved,
      tries
        .replaceAll('repo_id', 'repoId')
        .replaceAll('commit_sha', 'commitSha')
        .replaceAll('commit_branch', 'commitBranch'),
    );

    const second = await startWatch(folder, ['--settle', '0.5'], proxyConfig);
    await second.waitFor('stdout', /^Published "Cut Take\.wav"/m, 60_000);
    expect(second.stderr()).toMatch(
      /^Resuming the upload of Cut Take\.wav at [\d.]+ (?:B|KB|MB) of /m,
    );
    expect(second.stdout()).toContain(`as ${made[0]?.sha.slice(0, 12)} on main`);
    const after = await commitsFor('Cut Take.wav');
    expect(after).toHaveLength(1);
    expect(after[0]?.bounces).toHaveLength(1);
    expect((await interrupt(second)).code).toBe(0);
  }, 90_000);

  it('stops at once on Ctrl-C while the server cannot be reached', async () => {
    const folder = scratchDir('watch-offline-stop');
    const watcher = await startWatch(folder, ['--settle', '0.5'], proxyConfig);
    down = true;
    for (const socket of sockets) socket.destroy();
    try {
      writeWav(path.join(folder, 'Unsent Take.wav'), 1, 22_050, 440 * 3);
      await watcher.waitFor('stderr', /^Offline: Could not reach the Takes server at /m);
      const started = Date.now();
      const result = await interrupt(watcher);
      expect(result.code, result.stderr).toBe(0);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(published(result.stdout)).toEqual([]);
      expect(result.stderr).not.toContain('Finishing the current upload');
    } finally {
      down = false;
    }
  });
});
