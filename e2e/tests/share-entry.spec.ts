/// <reference lib="dom" />
// The page-side callback below reads the DOM, so this file needs the DOM types.
import { chunkModules, manifest, modulesIn, staticFiles } from './support/build';
import { separatePage } from './support/members';
import { seedSharedTrack } from './support/sharing';
import { expect, test } from './support/test';

/**
 * A share link's page is its own entry (web/share.html): a listener's first visit downloads the
 * share page, the player, the waveform and the comments, and none of the app around them. Read
 * from the build (support/build.ts).
 */

/** The app's frame and its other screens: none of it belongs on a listener's first visit. */
const APP_ONLY = [
  /^src\/main\.tsx$/,
  /^src\/app\/(router|layout|navbar|footer|avatar-menu|search-box)\.tsx$/,
  /^src\/features\/(marketing|dashboard|projects|versions|upload|blog|legal|contact|collections|repos|compare|search|settings|profile|notifications|bounces|debug|desktop|members)\//,
  /^src\/features\/player\/global-player\.tsx$/,
];
const appOnly = (module: string) => APP_ONLY.some((pattern) => pattern.test(module));
const isQueryKeys = (module: string) => /^src\/features\/[^/]+\/[^/]+-api\.ts$/.test(module);

/** What the listener's page is made of. */
const SHARE_PAGE_MODULES = [
  'src/share-main.tsx',
  'src/features/share/share-page.tsx',
  'src/features/player/audio-player-provider.tsx',
  'src/features/review/review-waveform.tsx',
  'src/features/comments/comment-list.tsx',
];

test('the built share entry holds the share page and none of the app around it', () => {
  const mainEntry = manifest['index.html'];
  const shareEntry = manifest['share.html'];
  expect(mainEntry?.isEntry).toBe(true);
  expect(shareEntry?.isEntry).toBe(true);

  // The entry's files, and the share page's, which the entry asks for as soon as it runs.
  const files = staticFiles('share.html');
  expect(shareEntry?.dynamicImports ?? []).not.toEqual([]);
  for (const dynamic of shareEntry?.dynamicImports ?? [])
    for (const file of staticFiles(dynamic)) files.add(file);
  expect(files.has(mainEntry!.file)).toBe(false);
  const modules = modulesIn(files);
  for (const wanted of SHARE_PAGE_MODULES) expect(modules).toContain(wanted);
  expect(modules.filter(appOnly)).toEqual([]);
  // No schemas either: the page needs the contract's words and limits, not zod (93 KB, and about
  // 100 ms of a phone's main thread to build every schema).
  const isZod = (module: string) => /(^|\/)node_modules\/zod\//.test(module);
  expect(modules.filter(isZod)).toEqual([]);

  // The check sees app code where it is: the main entry's own files hold the landing page.
  expect(modulesIn(staticFiles('index.html')).filter(appOnly)).toContain(
    'src/features/marketing/landing-page.tsx',
  );
  // ... and zod where it is: the app's sign-in form validates with the contract's schemas.
  const everything = Object.values(chunkModules).flat();
  expect(everything.filter(isZod)).not.toEqual([]);
});

test('a visitor opening a share link downloads only the share entry, and leaves it for the app', async ({
  page,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.setTimeout(120_000);
  const { owner, link } = await seedSharedTrack(page, baseURL, {
    label: 'share-entry-owner',
    seconds: 4,
    link: { download_enabled: false },
  });

  const visitor = await separatePage(browser, baseURL, extraHTTPHeaders);
  // What the Content-Security-Policy refuses (zod's eval probe once did, at the schemas' load).
  await visitor.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.sourceFile}`);
    });
  });
  const scripts: string[] = [];
  const api: string[] = [];
  visitor.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (request.resourceType() === 'script') scripts.push(pathname);
    if (pathname.startsWith('/api/')) api.push(pathname);
  });
  await visitor.goto(link.url);
  await expect(visitor.getByRole('heading', { level: 1, name: owner.projectName })).toBeVisible();
  await expect(visitor.getByText('No comments yet.')).toBeVisible();
  // The HTML asks for the session and the link itself (spa.ts); the page takes those answers
  // instead of asking again.
  expect(api.filter((p) => p === '/api/auth/session')).toHaveLength(1);
  expect(api.filter((p) => p === `/api/links/hash/${link.hash}`)).toHaveLength(1);

  expect(
    await visitor.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
  ).toEqual([]);
  expect(scripts).toContain(`/${manifest['share.html']!.file}`);
  expect(scripts).not.toContain(`/${manifest['index.html']!.file}`);
  // After the page shows, the live stream's code arrives with the query keys it refreshes (the
  // other features' small *-api.ts modules): data, not screens.
  const downloaded = scripts.map((script) => script.replace(/^\//, ''));
  const screens = modulesIn(downloaded).filter((module) => appOnly(module) && !isQueryKeys(module));
  expect(screens).toEqual([]);

  // 'Sign up' is the app's page, outside the share entry: it loads as the full app.
  await visitor.getByRole('link', { name: 'Sign up' }).click();
  await expect(visitor).toHaveURL(/\/login\?mode=sign-up$/);
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText('Sign in to your account');
  expect(scripts).toContain(`/${manifest['index.html']!.file}`);

  // Any other address the share entry's router meets (here a history step it did not make) is
  // loaded afresh, as the full app.
  await visitor.goto(link.url);
  await expect(visitor.getByRole('heading', { level: 1, name: owner.projectName })).toBeVisible();
  await visitor.evaluate(() => {
    window.history.pushState({}, '', '/about');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(visitor).toHaveURL(/\/about$/);
  await expect(visitor.getByRole('heading', { level: 1 })).not.toHaveText(owner.projectName);
  await expect(visitor.getByRole('contentinfo')).toBeVisible();
  await visitor.context().close();
});
