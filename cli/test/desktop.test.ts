import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bounce, Repository } from '@takes/contract';
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
import { startTestSmtp, type TestSmtp } from '../../server/test/smtp';
import { safeName } from '../src/safe-name.js';
import {
  desktopEntry,
  macRegisterSteps,
  windowsRegisterSteps,
  windowsUnregisterSteps,
} from '../src/commands/link.js';

// The desktop companion: `takes pull` downloading a branch, `takes link register/unregister`
// (the takes:// handler) and `takes open URL` (what the handler runs), against the built server.

let smtp: TestSmtp;
let server: RunningServer;
let configDir: string;
let workDir: string;
const email = 'desk-owner@example.com';
const scratch = scratchDirs();
const scratchDir = scratch.make;

const REPO = 'Desk: Session';
const REPO_FOLDER = 'Desk Session';
const SECOND_TITLE = 'Mix 1/2: ../../Final?';

let repoId = '';
let pullUrl = '';
/** The two bounces, oldest first, with the file uploaded for each and the expected file name. */
const uploads: { id: string; sha: string; file: string; name: string }[] = [];

beforeAll(async () => {
  smtp = await startTestSmtp();
  server = await startServer(smtp.url);
  configDir = scratchDir('desk-config');
  workDir = scratchDir('desk-work');
  const login = await loginByEmail(email, configDir);
  expect(login.code, login.stderr).toBe(0);

  const created = await run(['repo', 'create', REPO]);
  expect(created.code, created.stderr).toBe(0);
  repoId = /\((\S+)\)\n$/.exec(created.stdout)?.[1] ?? '';

  const wav = writeWav(path.join(workDir, 'first.wav'), 2);
  const flac = path.join(workDir, 'second.flac');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=330:sample_rate=44100:duration=2',
    '-c:a',
    'flac',
    flac,
  ]);
  for (const [file, title, ext] of [
    [wav, 'First take', 'wav'],
    [flac, SECOND_TITLE, 'flac'],
  ] as const) {
    const result = await run([
      'commit',
      '--repo',
      REPO,
      '-m',
      title,
      '--bounce',
      file,
      '--title',
      title,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const sha = /^\[main ([0-9a-f]{12})\]/.exec(result.stdout)?.[1] ?? '';
    const id = /^Published bounce ".+" (\S+) \(/m.exec(result.stdout)?.[1] ?? '';
    expect(sha).not.toBe('');
    expect(id).not.toBe('');
    const safeTitle = title === SECOND_TITLE ? 'Mix 1 2 Final' : title;
    uploads.push({ id, sha, file, name: `${sha} ${safeTitle}.${ext}` });
  }
  const { repo } = await api<{ repo: Repository }>(`/api/repos/${repoId}`);
  pullUrl = repo.pull_url;
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  scratch.removeAll();
});

const run = (args: string[], env?: Record<string, string>, dir = configDir) =>
  takes(args, { configDir: dir, ...(env ? { env } : {}) });

const loginByEmail = (address: string, dir: string) => login(server.url, smtp, address, dir);
const fetchAs = (urlPath: string) => apiOf(server.url, configDir).fetch(urlPath);
const api = <T>(urlPath: string): Promise<T> => apiOf(server.url, configDir).json<T>(urlPath);

async function waitForCompleted(bounceId: string): Promise<void> {
  const bounce = await waitForBounce<Bounce>(apiOf(server.url, configDir), repoId, bounceId);
  if (bounce.status === 'failed') throw new Error(`bounce ${bounceId} failed: ${bounce.error}`);
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const sha256File = (file: string) => sha256(fs.readFileSync(file));
const branchDir = (dir: string) => path.join(dir, REPO_FOLDER, 'main');
const filesIn = (dir: string) => fs.readdirSync(dir).sort();

describe('takes pull', () => {
  it("downloads a branch's bounces into DIR/REPO/BRANCH with safe names and identical bytes, then skips them", async () => {
    const dir = scratchDir('pull');
    const first = await run(['pull', '--repo', REPO.toUpperCase(), '--dir', dir]);
    expect(first.code, first.stderr).toBe(0);
    const [older, newer] = uploads as [(typeof uploads)[0], (typeof uploads)[0]];
    // Newest first, as `takes log` lists them.
    const lines = first.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^Downloaded ${escape(newer.name)} \\([\\d.]+ KB\\)$`));
    expect(lines[1]).toMatch(new RegExp(`^Downloaded ${escape(older.name)} \\([\\d.]+ KB\\)$`));
    expect(lines[2]).toBe('2 downloaded, 0 already up to date');
    expect(first.stderr).toContain(`Downloading ${older.name} 100%`);

    // Only the repository's folder in DIR; in it the branch's, with the two files and the state.
    expect(filesIn(dir)).toEqual([REPO_FOLDER]);
    expect(filesIn(path.join(dir, REPO_FOLDER))).toEqual(['main']);
    const folder = branchDir(dir);
    expect(filesIn(folder)).toEqual(['.takes-pull.json', older.name, newer.name].sort());
    for (const upload of uploads) {
      expect(sha256File(path.join(folder, upload.name))).toBe(sha256File(upload.file));
    }

    const again = await run(['pull', '--repo', repoId, '--dir', dir]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(
      `Up to date ${newer.name}\nUp to date ${older.name}\n0 downloaded, 2 already up to date\n`,
    );

    // Without the state file, the files' hashes tell the server they are the same; a file whose
    // size changed is fetched again, whole.
    fs.rmSync(path.join(folder, '.takes-pull.json'));
    fs.appendFileSync(path.join(folder, older.name), 'x');
    const repaired = await run(['pull', '--repo', REPO, '--branch', 'main', '--dir', dir]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toMatch(
      new RegExp(
        `^Up to date ${escape(newer.name)}\nDownloaded ${escape(older.name)} .*\n1 downloaded, 1 already up to date\n$`,
      ),
    );
    expect(sha256File(path.join(folder, older.name))).toBe(sha256File(older.file));
    expect(filesIn(folder)).toEqual(['.takes-pull.json', older.name, newer.name].sort());
  });

  it('--latest fetches only the newest bounce', async () => {
    const dir = scratchDir('latest');
    const result = await run(['pull', '--repo', REPO, '--dir', dir, '--latest']);
    expect(result.code, result.stderr).toBe(0);
    const newest = uploads[1]?.name ?? '';
    expect(result.stdout).toMatch(
      new RegExp(`^Downloaded ${escape(newest)} .*\n1 downloaded, 0 already up to date\n$`),
    );
    expect(filesIn(branchDir(dir))).toEqual(['.takes-pull.json', newest]);
  });

  it('--quality standard downloads the MP3 renditions once processed', async () => {
    await Promise.all(uploads.map((u) => waitForCompleted(u.id)));
    const dir = scratchDir('standard');
    const result = await run(['pull', '--repo', REPO, '--dir', dir, '--quality', 'standard']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/\n2 downloaded, 0 already up to date\n$/);
    const names = uploads.map((u) => u.name.replace(/\.\w+$/, '.mp3'));
    expect(filesIn(branchDir(dir))).toEqual(['.takes-pull.json', ...names].sort());
    for (const [index, upload] of uploads.entries()) {
      const stream = await fetchAs(
        `/api/repos/${repoId}/bounces/${upload.id}/stream?quality=standard`,
      );
      expect(stream.headers.get('content-type')).toBe('audio/mpeg');
      const expected = sha256(Buffer.from(await stream.arrayBuffer()));
      const got = fs.readFileSync(path.join(branchDir(dir), names[index] ?? ''));
      expect(sha256(got)).toBe(expected);
      expect(sha256(got)).not.toBe(sha256File(upload.file));
    }
    const again = await run(['pull', '--repo', REPO, '--dir', dir, '--quality', 'standard']);
    expect(again.stdout).toMatch(/\n0 downloaded, 2 already up to date\n$/);
  });

  it('refuses a repository the person cannot see, and writes nothing', async () => {
    const otherConfig = scratchDir('desk-other');
    const login = await loginByEmail('desk-stranger@example.com', otherConfig);
    expect(login.code, login.stderr).toBe(0);
    const dir = scratchDir('stranger');
    const byId = await run(['pull', '--repo', repoId, '--dir', dir], undefined, otherConfig);
    expect(byId).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `takes: Repository ${repoId} was not found, or you are not a member of it (HTTP 404).\n`,
    });
    const link = await run(['open', pullUrl, '--dir', dir], undefined, otherConfig);
    expect(link.code).toBe(1);
    expect(link.stderr).toContain(`Repository ${repoId} was not found`);
    const byName = await run(['pull', '--repo', REPO, '--dir', dir], undefined, otherConfig);
    expect(byName.code).toBe(1);
    expect(byName.stderr).toContain(`takes: No repository named "${REPO}".`);
    expect(filesIn(dir)).toEqual([]);
  });

  it('never leaves half a file under its name when the connection is cut', async () => {
    // A proxy that cuts the connection 4 KB into the first audio stream.
    const target = new URL(server.url);
    const sockets = new Set<net.Socket>();
    const proxy = net.createServer((client) => {
      const upstream = net.connect(Number(target.port), target.hostname);
      sockets.add(client).add(upstream);
      let streamed: number | undefined;
      client.on('data', (chunk: Buffer) => {
        if (chunk.toString('latin1').includes('/stream?')) streamed = 0;
        upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => {
        if (streamed === undefined) return client.write(chunk);
        const room = 4096 - streamed;
        streamed += chunk.length;
        if (room > 0) client.write(chunk.subarray(0, room));
        if (streamed >= 4096) {
          client.destroy();
          upstream.destroy();
        }
      });
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
      const cutConfig = scratchDir('desk-cut');
      const saved = JSON.parse(
        fs.readFileSync(path.join(configDir, 'credentials.json'), 'utf8'),
      ) as Record<string, unknown>;
      fs.writeFileSync(
        path.join(cutConfig, 'credentials.json'),
        JSON.stringify({ ...saved, server: proxied }),
        { mode: 0o600 },
      );
      const dir = scratchDir('cut');
      const newest = uploads[1]?.name ?? '';
      expect(fs.statSync(uploads[1]?.file ?? '').size).toBeGreaterThan(4096);
      const cut = await run(['pull', '--repo', repoId, '--dir', dir], undefined, cutConfig);
      expect(cut).toMatchObject({
        code: 1,
        stdout: '',
        stderr: expect.stringContaining(
          `takes: The connection to ${proxied} was cut while downloading ${newest}. Run the same command again.\n`,
        ) as string,
      });
      // Neither the file nor its partial download is left.
      expect(filesIn(branchDir(dir))).toEqual([]);

      const again = await run(['pull', '--repo', repoId, '--dir', dir]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/\n2 downloaded, 0 already up to date\n$/);
      expect(sha256File(path.join(branchDir(dir), newest))).toBe(
        sha256File(uploads[1]?.file ?? ''),
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('refuses a quality it does not know', async () => {
    const result = await run(['pull', '--repo', REPO, '--quality', 'lossless']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^takes: --quality must be original, high or standard\n/);
  });
});

describe('takes link', () => {
  function xdgHome() {
    const root = scratchDir('xdg');
    const env = {
      HOME: path.join(root, 'home'),
      XDG_DATA_HOME: path.join(root, 'data'),
      XDG_CONFIG_HOME: path.join(root, 'config'),
    };
    for (const dir of Object.values(env)) fs.mkdirSync(dir, { recursive: true });
    return env;
  }
  const queryDefault = (env: Record<string, string>) =>
    execFileSync('xdg-mime', ['query', 'default', 'x-scheme-handler/takes'], {
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
    }).trim();

  it('registers takes as the takes:// handler in an XDG desktop entry, and unregisters it', async () => {
    const env = xdgHome();
    const entry = path.join(env.XDG_DATA_HOME, 'applications', 'takes-url.desktop');
    const registered = await run(['link', 'register'], env);
    expect(registered.code, registered.stderr).toBe(0);
    expect(registered.stdout).toContain(`Wrote ${entry}\n`);
    const text = fs.readFileSync(entry, 'utf8');
    const script = path.resolve(import.meta.dirname, '..', 'bin', 'takes.js');
    expect(text).toContain('[Desktop Entry]\nType=Application\nName=Takes\n');
    expect(text).toContain(`\nExec=${process.execPath} ${script} open %u\n`);
    expect(text).toContain('\nMimeType=x-scheme-handler/takes;\n');
    expect(text).toContain('\nNoDisplay=true\n');
    expect(text).toContain('\nTerminal=true\n');
    expect(queryDefault(env)).toBe('takes-url.desktop');

    // The server cannot be reached: the scheme falls back to takes, with a note.
    const port = await freePort();
    const removed = await run(['link', 'unregister', '--server', `http://127.0.0.1:${port}`], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toContain('using the link scheme takes://');
    expect(removed.stdout).toContain(`Removed ${entry}\n`);
    expect(fs.existsSync(entry)).toBe(false);
    expect(queryDefault(env)).toBe('');

    const nothing = await run(['link', 'unregister'], env);
    expect(nothing).toMatchObject({
      code: 0,
      stdout: 'takes was not registered for takes:// links: nothing to remove.\n',
    });
  });

  it('names xdg-utils when xdg-mime is missing, and writes nothing', async () => {
    const env = { ...xdgHome(), PATH: scratchDir('empty-path') };
    const result = await run(['link', 'register'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('takes: xdg-mime was not found. Install xdg-utils');
    expect(fs.existsSync(path.join(env.XDG_DATA_HOME, 'applications'))).toBe(false);
  });

  it('gives macOS and Windows the exact steps', () => {
    const command = ['C:\\Program Files\\nodejs\\node.exe', 'C:\\Users\\me\\takes\\bin\\takes.js'];
    const reg = windowsRegisterSteps('takes', command);
    expect(reg).toContain(
      'Windows Registry Editor Version 5.00\n\n[HKEY_CURRENT_USER\\Software\\Classes\\takes]\n@="URL:Takes"\n"URL Protocol"=""\n',
    );
    expect(reg).toContain(
      '[HKEY_CURRENT_USER\\Software\\Classes\\takes\\shell\\open\\command]\n@="\\"C:\\\\Program Files\\\\nodejs\\\\node.exe\\" \\"C:\\\\Users\\\\me\\\\takes\\\\bin\\\\takes.js\\" open \\"%1\\""\n',
    );
    expect(windowsUnregisterSteps('takes-beta')).toContain(
      '[-HKEY_CURRENT_USER\\Software\\Classes\\takes-beta]',
    );
    const mac = macRegisterSteps('takes-beta', ['/usr/local/bin/node', '/opt/takes/bin/takes.js']);
    expect(mac).toContain('on open location theURL');
    expect(mac).toContain('"CFBundleURLSchemes":["takes-beta"]');
    // A path with spaces, quotes and % is quoted and escaped as the desktop entry spec says.
    expect(desktopEntry('takes', ['/opt/my node/node', '/a"b/50%/takes.js'])).toContain(
      'Exec="/opt/my node/node" "/a\\\\"b/50%%/takes.js" open %u\n',
    );
  });
});

describe('takes open', () => {
  it('downloads the branch of a takes://pull link into TAKES_PULL_DIR, or --dir', async () => {
    expect(pullUrl).toBe(`takes://pull?repo=${repoId}&branch=main`);
    const pullDir = scratchDir('open-env');
    const viaEnv = await run(['open', pullUrl], { TAKES_PULL_DIR: pullDir });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect(viaEnv.stdout).toMatch(/\n2 downloaded, 0 already up to date\n$/);
    expect(filesIn(branchDir(pullDir))).toEqual(
      ['.takes-pull.json', ...uploads.map((u) => u.name)].sort(),
    );

    const dir = scratchDir('open-dir');
    const other = scratchDir('open-unused');
    const viaDir = await run(['open', `takes://pull?repo=${repoId}`, '--dir', dir], {
      TAKES_PULL_DIR: other,
    });
    expect(viaDir.code, viaDir.stderr).toBe(0);
    expect(filesIn(branchDir(dir))).toHaveLength(3);
    expect(filesIn(other)).toEqual([]);
  });

  it('refuses links that are not Takes links, or that it does not know', async () => {
    const dir = scratchDir('open-bad');
    const cases: [string, string][] = [
      ['not a link', 'takes: Not a link: not a link\n'],
      [
        `https://example.com/pull?repo=${repoId}`,
        `takes: Not a Takes link: https://example.com/pull?repo=${repoId} (Takes links start with takes://)\n`,
      ],
      [
        `takes://delete?repo=${repoId}`,
        `takes: Unknown Takes link "delete": takes://delete?repo=${repoId} (takes open knows pull and auth-callback)\n`,
      ],
      [
        'takes://pull?branch=main',
        'takes: This pull link names no repository: takes://pull?branch=main\n',
      ],
      [
        'takes://auth-callback',
        'takes: This sign-in link carries no code: takes://auth-callback\n',
      ],
    ];
    for (const [link, message] of cases) {
      const result = await run(['open', link, '--dir', dir]);
      expect(result, link).toMatchObject({ code: 1, stdout: '', stderr: message });
    }
    expect(filesIn(dir)).toEqual([]);
  });

  it('says what to do with a sign-in code when no login is waiting', async () => {
    const result = await run(['open', 'takes://auth-callback?code=abc123XYZ']);
    expect(result).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        'takes: No `takes login` is waiting for this sign-in. Run `takes login` and paste this code when asked: abc123XYZ\n',
    });
  });
});

describe('safe file names', () => {
  it('makes one safe name from any title', () => {
    expect(safeName('Mix 1/2: ../../Final?', 'Untitled')).toBe('Mix 1 2 Final');
    expect(safeName('..', 'Untitled')).toBe('Untitled');
    expect(safeName(' \u0000\n\t ', 'Untitled')).toBe('Untitled');
    expect(safeName('.hidden', 'x')).toBe('hidden');
    expect(safeName('a\\b|c*d"e<f>g', 'x')).toBe('a b c d e f g');
    expect(safeName('v1.2 final.', 'x')).toBe('v1.2 final');
    expect(safeName('CON', 'x')).toBe('_CON');
    expect(safeName('nul.wav', 'x')).toBe('_nul.wav');
    expect(safeName('a\u202egnp.exe', 'x')).toBe('agnp.exe');
    const long = safeName('é'.repeat(500), 'x');
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(160);
    expect(long).toBe('é'.repeat(80));
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
