/**
 * npm run bench:bundle
 *
 * Loads each public page of the built app in Chromium (the built server on a free port with its
 * own data folder), records every JavaScript file the page downloads, and prints per route the
 * number of files and their size raw and gzipped. Target: the landing page at most 150 KB of
 * gzipped JavaScript. Exits 1 when the target is missed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { PUBLIC_PAGES } from '@takes/contract';
import { chromiumLaunchOptions } from '../tests/support/chromium';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverEntry = path.resolve(here, '..', '..', 'server', 'dist', 'main.js');
const PORT = Number(process.env.BENCH_PORT ?? 18298);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const LANDING_BUDGET_KB = 150;

// The pages of the sitemap, plus sign-in and the not-found page.
const ROUTES = [...PUBLIC_PAGES, '/login', '/404'];

async function main(): Promise<void> {
  if (!fs.existsSync(serverEntry)) throw new Error('Build first: npm run build');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-bundle-'));
  let server: ChildProcess | undefined;
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    server = await startServer(dataDir);
    const posts = (await (await fetch(`${ORIGIN}/api/blog`)).json()) as {
      posts: { slug: string }[];
    };
    const routes = [...ROUTES];
    if (posts.posts[0])
      routes.splice(routes.indexOf('/blog') + 1, 0, `/blog/${posts.posts[0].slug}`);

    console.log('JavaScript downloaded per public page (fresh browser context each, no cache)\n');
    console.log(
      `${'route'.padEnd(40)}${'files'.padStart(6)}${'raw KB'.padStart(10)}${'gzip KB'.padStart(10)}`,
    );
    let landingGzipKb = NaN;
    for (const route of routes) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts = new Map<string, Buffer>();
      const pending: Promise<void>[] = [];
      page.on('response', (response) => {
        const type = response.headers()['content-type'] ?? '';
        if (!type.includes('javascript')) return;
        pending.push(
          response
            .body()
            .then((body) => {
              scripts.set(response.url(), body);
            })
            .catch(() => undefined),
        );
      });
      await page.goto(`${ORIGIN}${route}`, { waitUntil: 'networkidle' });
      await Promise.all(pending);
      let raw = 0;
      let gzip = 0;
      for (const body of scripts.values()) {
        raw += body.length;
        gzip += gzipSync(body, { level: 9 }).length;
      }
      const gzipKb = gzip / 1024;
      if (route === '/') landingGzipKb = gzipKb;
      console.log(
        `${route.padEnd(40)}${String(scripts.size).padStart(6)}${(raw / 1024).toFixed(1).padStart(10)}${gzipKb.toFixed(1).padStart(10)}`,
      );
      await context.close();
    }
    const met = landingGzipKb <= LANDING_BUDGET_KB;
    console.log(
      `\nlanding page: ${landingGzipKb.toFixed(1)} KB of gzipped JavaScript (target <= ${LANDING_BUDGET_KB} KB: ${met ? 'met' : 'NOT met'})`,
    );
    if (!met) process.exitCode = 1;
  } finally {
    await browser.close();
    server?.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function startServer(dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [serverEntry, 'serve'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: ORIGIN,
      NODE_ENV: 'production',
      // No email is sent by the benchmark; production asks for this explicitly.
      MAIL_TO_LOG: 'true',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${ORIGIN}/api/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error('server did not start');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
