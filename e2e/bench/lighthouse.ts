/**
 * npm run bench:lighthouse [-- --runs N --only REGEX --out DIR --without-share-entry --without-page-preloads]
 *
 * Lighthouse (the npm package's CLI, its default mobile settings: simulated slow 4G and a
 * mid-range phone) against the built server (`node server/dist/main.js serve`, NODE_ENV=production,
 * SQLite in a temporary data folder, a free port) with a seeded account of 50 projects, each with
 * a branch and a processed version (small WAVs made by ffmpeg, uploaded through the API), and one
 * share link. Each page runs in a fresh Chromium (no cache: a first visit); the signed-in pages
 * send the account's session cookie. Prints performance, accessibility, best practices, SEO, LCP,
 * CLS and TBT per page with each goal met or not, and the bytes on the wire of a first visit to
 * the share page before audio starts. With --out, each page's Lighthouse report (JSON) is saved
 * there. With --without-share-entry, the server's copy of the build has no share.html, so the
 * share page loads through the main entry as it did before it had its own (for comparison); with
 * --without-page-preloads, its copy has no .vite/page-preloads.json, so no page's HTML lists the
 * page's files for preloading (as before it did). Lighthouse's simulated scores move by several
 * points from one run to the next: each page runs --runs times (3 by default) and the run with
 * the median performance score is printed, with the spread of the scores. --only REGEX runs the
 * pages whose label matches. Exits 1 when a goal is missed.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot, seedAccount, serverEntry, startServer } from './lighthouse-seed';

const run = promisify(execFile);
const lighthouseCli = path.join(repoRoot, 'node_modules', 'lighthouse', 'cli', 'index.js');
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = '--headless=new --no-sandbox --disable-gpu';
const PROJECTS = 50;
const SHARE_BUDGET_BYTES = 200 * 1024;

interface Goal {
  minPerformance: number;
}

interface PageRun {
  label: string;
  path: string;
  signedIn: boolean;
  goal: Goal;
}

interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  /** Bytes on the wire of every request but audio. */
  bytesBeforeAudio: number;
}

interface NetworkItem {
  url: string;
  transferSize?: number;
  resourceType?: string;
  mimeType?: string;
}

interface LighthouseReport {
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null }>;
  audits: Record<
    string,
    { numericValue?: number; details?: { items?: NetworkItem[] } } | undefined
  >;
}

interface Options {
  out?: string;
  runs: number;
  only?: RegExp;
  withoutShareEntry: boolean;
  withoutPagePreloads: boolean;
}

function parseArgs(argv: string[]): Options {
  const valueOf = (flag: string) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const out = valueOf('--out');
  const only = valueOf('--only');
  const runs = Number(valueOf('--runs') ?? 3);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number from 1');
  return {
    ...(out ? { out: path.resolve(out) } : {}),
    ...(only ? { only: new RegExp(only) } : {}),
    runs,
    withoutShareEntry: argv.includes('--without-share-entry'),
    withoutPagePreloads: argv.includes('--without-page-preloads'),
  };
}

async function lighthouse(url: string, cookie: string | undefined): Promise<LighthouseReport> {
  // The report goes to a file of its own: on stdout, something else written there now and then
  // landed inside it (an unreadable report, always near the same offset).
  const reportFile = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), 'takes-lighthouse-report-')),
    'report.json',
  );
  const args = [
    lighthouseCli,
    url,
    '--output=json',
    `--output-path=${reportFile}`,
    '--quiet',
    `--chrome-flags=${CHROME_FLAGS}`,
    '--only-categories=performance,accessibility,best-practices,seo',
  ];
  if (cookie) args.push(`--extra-headers=${JSON.stringify({ Cookie: cookie })}`);
  // Lighthouse now and then fails to record the trace (NO_NAVSTART, "run Lighthouse again"):
  // such a run has no figures, so it is run again, up to 3 times.
  let failure = '';
  try {
    for (let attempt = 1; attempt <= 3; attempt++) {
      fs.rmSync(reportFile, { force: true });
      try {
        await run(process.execPath, args, {
          env: { ...process.env, CHROME_PATH },
          maxBuffer: 256 * 1024 * 1024,
        });
      } catch (error) {
        // The CLI exits 1 on a runtime error, its report still written.
        if (!fs.existsSync(reportFile))
          throw new Error(`Lighthouse on ${url} failed: ${String(error)}`);
      }
      let report: LighthouseReport;
      try {
        report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as LighthouseReport;
      } catch (error) {
        failure = `an unreadable report (${String(error)})`;
        console.error(`Lighthouse on ${url}, attempt ${attempt}: ${failure}`);
        continue;
      }
      if (!report.runtimeError) return report;
      failure = `${report.runtimeError.code} ${report.runtimeError.message}`;
      console.error(`Lighthouse on ${url}, attempt ${attempt}: ${failure}`);
    }
  } finally {
    fs.rmSync(path.dirname(reportFile), { recursive: true, force: true });
  }
  throw new Error(`Lighthouse on ${url}: ${failure}`);
}

const isAudio = (item: NetworkItem) =>
  item.resourceType === 'Media' ||
  (item.mimeType ?? '').startsWith('audio/') ||
  /\/api\/(links\/hash\/[^/]+\/audio|versions\/[^/]+\/stream)/.test(item.url);

function figuresOf(report: LighthouseReport): Figures {
  const score = (id: string) => Math.round((report.categories[id]?.score ?? NaN) * 100);
  const value = (id: string) => report.audits[id]?.numericValue ?? NaN;
  const requests = report.audits['network-requests']?.details?.items ?? [];
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: value('largest-contentful-paint'),
    cls: value('cumulative-layout-shift'),
    tbtMs: value('total-blocking-time'),
    bytesBeforeAudio: requests
      .filter((item) => !isAudio(item))
      .reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
  };
}

/** Each goal this page misses, in words (none: all met). */
function missed(page: PageRun, f: Figures): string[] {
  const misses: string[] = [];
  if (!(f.performance >= page.goal.minPerformance))
    misses.push(`performance ${f.performance} < ${page.goal.minPerformance}`);
  if (!(f.cls < 0.05)) misses.push(`CLS ${f.cls.toFixed(3)} >= 0.05`);
  if (!(f.accessibility === 100)) misses.push(`accessibility ${f.accessibility} < 100`);
  if (!(f.bestPractices === 100)) misses.push(`best practices ${f.bestPractices} < 100`);
  return misses;
}

async function main(): Promise<void> {
  const { out, runs, only, withoutShareEntry, withoutPagePreloads } = parseArgs(
    process.argv.slice(2),
  );
  if (
    !fs.existsSync(serverEntry) ||
    !fs.existsSync(path.join(repoRoot, 'web', 'dist', 'index.html'))
  )
    throw new Error('Build first: npm run build');
  if (!fs.existsSync(lighthouseCli)) throw new Error('npm install first: lighthouse is missing');
  if (out) fs.mkdirSync(out, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-lighthouse-'));
  const wavDir = path.join(dataDir, 'wavs');
  fs.mkdirSync(wavDir);
  // The server serves its own copy of the build, so a rebuild meanwhile changes nothing measured.
  const webDist = path.join(dataDir, 'web');
  fs.cpSync(path.join(repoRoot, 'web', 'dist'), webDist, { recursive: true });
  if (withoutShareEntry) {
    // For comparison: without share.html the server sends the main entry for /share/:hash too.
    for (const file of fs.readdirSync(webDist))
      if (file.startsWith('share.html')) fs.rmSync(path.join(webDist, file));
    console.log('Without the share entry: /share/:hash is served by the main entry (index.html).');
  }
  if (withoutPagePreloads) {
    fs.rmSync(path.join(webDist, '.vite', 'page-preloads.json'), { force: true });
    console.log("Without page preloads: no page's HTML lists its files for preloading.");
  }
  const server = await startServer({
    NODE_ENV: 'production',
    DATA_DIR: path.join(dataDir, 'data'),
    WEB_DIST_DIR: webDist,
    SECRET_KEY: 'bench-lighthouse-secret-0123456789abcdef',
    LOG_LEVEL: 'warn',
    // No email is sent by the benchmark; production asks for this explicitly.
    MAIL_TO_LOG: 'true',
  });
  try {
    const started = Date.now();
    const seeded = await seedAccount(server.origin, wavDir, PROJECTS);
    console.log(
      `Seeded one account with ${PROJECTS} projects (a branch and a processed version each) and a share link in ${((Date.now() - started) / 1000).toFixed(0)} s.`,
    );
    const pages: PageRun[] = [
      { label: '/ landing', path: '/', signedIn: false, goal: { minPerformance: 95 } },
      { label: '/login', path: '/login', signedIn: false, goal: { minPerformance: 95 } },
      {
        label: '/share/:hash',
        path: `/share/${seeded.shareHash}`,
        signedIn: false,
        goal: { minPerformance: 95 },
      },
      { label: '/dashboard', path: '/dashboard', signedIn: true, goal: { minPerformance: 90 } },
      {
        label: '/projects/:id',
        path: `/projects/${seeded.projectId}`,
        signedIn: true,
        goal: { minPerformance: 90 },
      },
    ];

    const results: { page: PageRun; figures: Figures; scores: number[] }[] = [];
    for (const page of pages.filter((p) => !only || only.test(p.label))) {
      const reports: { report: LighthouseReport; figures: Figures }[] = [];
      for (let i = 0; i < runs; i++) {
        const report = await lighthouse(
          `${server.origin}${page.path}`,
          page.signedIn ? seeded.cookie : undefined,
        );
        reports.push({ report, figures: figuresOf(report) });
      }
      // The run with the median performance score (the lower middle one of an even count).
      const sorted = [...reports].sort((a, b) => a.figures.performance - b.figures.performance);
      const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
      if (out)
        fs.writeFileSync(
          path.join(
            out,
            `${page.label.replace(/[^a-z]+/gi, '-').replace(/^-|-$/g, '') || 'landing'}.json`,
          ),
          JSON.stringify(median.report),
        );
      results.push({
        page,
        figures: median.figures,
        scores: reports.map((r) => r.figures.performance),
      });
    }

    console.log(
      `\nLighthouse ${lighthouseVersion()}, default mobile settings (simulated slow 4G, mid-range phone), Chromium ${await chromiumVersion()}; the median of ${runs} run${runs === 1 ? '' : 's'} per page\n`,
    );
    const header = ['page', 'perf', 'runs', 'a11y', 'best pr.', 'SEO', 'LCP', 'CLS', 'TBT', 'goal'];
    const widths = [16, 6, 14, 6, 9, 5, 8, 7, 8, 0];
    const row = (cells: string[]) =>
      cells.map((cell, i) => (widths[i] ? cell.padEnd(widths[i]) : cell)).join(' ');
    console.log(row(header));
    let allMet = true;
    for (const { page, figures: f, scores } of results) {
      const misses = missed(page, f);
      if (misses.length > 0) allMet = false;
      console.log(
        row([
          page.label,
          String(f.performance),
          scores.join(' '),
          String(f.accessibility),
          String(f.bestPractices),
          String(f.seo),
          `${(f.lcpMs / 1000).toFixed(1)} s`,
          f.cls.toFixed(3),
          `${Math.round(f.tbtMs)} ms`,
          misses.length === 0
            ? `met (perf >= ${page.goal.minPerformance}, CLS < 0.05, a11y 100, best practices 100)`
            : `NOT met: ${misses.join(', ')}`,
        ]),
      );
    }
    const share = results.find((r) => r.page.label === '/share/:hash');
    if (share) {
      const shareBytes = share.figures.bytesBeforeAudio;
      const bytesMet = shareBytes <= SHARE_BUDGET_BYTES;
      if (!bytesMet) allMet = false;
      console.log(
        `\n/share/:hash first visit, bytes on the wire before audio: ${(shareBytes / 1024).toFixed(1)} KB (goal <= ${SHARE_BUDGET_BYTES / 1024} KB: ${bytesMet ? 'met' : 'NOT met'})`,
      );
    }
    console.log(allMet ? '\nAll goals met.' : '\nSome goals are NOT met.');
    if (!allMet) process.exitCode = 1;
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function lighthouseVersion(): string {
  const pkg = JSON.parse(
    fs.readFileSync(path.resolve(path.dirname(lighthouseCli), '..', 'package.json'), 'utf8'),
  ) as { version: string };
  return pkg.version;
}

async function chromiumVersion(): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(CHROME_PATH, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('close', () => resolve(/[\d.]+/.exec(text)?.[0] ?? 'unknown'));
    child.on('error', () => resolve('unknown'));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
