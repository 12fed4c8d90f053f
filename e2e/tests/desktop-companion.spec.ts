import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/test';
import { seedUser, signInWithPassword } from './support/accounts';

const takesBin = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'cli',
  'bin',
  'takes.js',
);

interface Run {
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  stderr: () => string;
}

/** The takes CLI as a person's terminal runs it, with its own config folder and home. */
function takes(args: string[], home: string): Run {
  const child = spawn(process.execPath, [takesBin, ...args], {
    env: { PATH: process.env.PATH, HOME: home, TAKES_CONFIG_DIR: path.join(home, 'config') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return {
    done: new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    }),
    stderr: () => stderr,
  };
}

test('takes login completes when the browser returns to takes:// after the approval', async ({
  page,
  request,
  baseURL,
}) => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-e2e-cli-'));
  try {
    const credentials = await seedUser(request, baseURL, 'cli-return');
    // A terminal: `takes login` shows the address and waits (a code may also be pasted).
    const login = takes(['login', '--server', String(baseURL)], home);
    await expect.poll(login.stderr, { timeout: 15_000 }).toContain(`${baseURL}/desktop-auth`);

    // The browser: sign in, approve; /desktop-return sends it on to the takes:// link.
    await page.goto('/desktop-auth');
    await signInWithPassword(page, credentials);
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page).toHaveURL(/\/desktop-return\?code=.+/);
    const link = await page.getByRole('link', { name: 'Open Takes Desktop' }).getAttribute('href');
    expect(link).toMatch(/^takes:\/\/auth-callback\?code=.+/);

    // What the operating system runs for that link once `takes link register` made takes its
    // handler (the desktop entry's Exec line): `takes open URL`.
    const opened = await takes(['open', String(link)], home).done;
    expect(opened.code, opened.stderr).toBe(0);

    const signedIn = await login.done;
    expect(signedIn.code, signedIn.stderr).toBe(0);
    expect(signedIn.stderr).toContain('Sign-in approved in the browser.');
    expect(signedIn.stdout).toBe(`Signed in as ${credentials.email} on ${baseURL}\n`);
    const whoami = await takes(['whoami'], home).done;
    expect(whoami.stdout).toBe(`${credentials.email} on ${baseURL}\n`);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});
