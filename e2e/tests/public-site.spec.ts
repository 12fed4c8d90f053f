import type { Page } from '@playwright/test';
import { recordRequests } from './support/own-origin';
import { expect, test } from './support/test';

/** Every public page: its path, its main heading and strings that must be on it. */
const PUBLIC_PAGES: readonly { path: string; heading: string | RegExp; texts: string[] }[] = [
  {
    path: '/',
    heading: 'Music version control with zero data harvesting',
    texts: ['Version Control', 'Private Sharing', 'Feedback Collection', 'Sound familiar?'],
  },
  { path: '/login', heading: /./, texts: [] },
  {
    path: '/about',
    heading: 'Built for the people who make the music',
    texts: ['Our Story', 'Privacy First', 'Git for Music', 'Open Ecosystem'],
  },
  {
    path: '/roadmap',
    heading: 'Where Takes is heading',
    texts: [
      'MVP release',
      'Q2-Q3 2025',
      'Phase 2: Enhanced Collaboration',
      'Q4 2025-Q1 2026',
      'Phase 3: Public Sharing',
      'Q2-Q4 2026',
      'iOS TestFlight build',
      'Artist-fan tools',
    ],
  },
  {
    path: '/features',
    heading: 'What Takes does, and how it compares',
    texts: ['Shared drives', 'File-transfer services', 'Streaming platforms’ private links'],
  },
  { path: '/contact', heading: 'Get in touch', texts: ['Send Message'] },
  { path: '/careers', heading: 'Join Our Team', texts: ['How we hire'] },
  { path: '/download', heading: 'Takes Desktop', texts: ['DMG', 'EXE', 'AppImage'] },
  { path: '/desktop-return', heading: 'Takes Desktop', texts: ['Missing code parameter.'] },
  { path: '/blog', heading: 'From the Takes team', texts: ['Why your mixes need branches'] },
  {
    path: '/blog/why-your-mixes-need-branches',
    heading: 'Why your mixes need branches',
    texts: ['Back to all posts'],
  },
  { path: '/terms', heading: 'Terms of Use', texts: ['Your content and your rights'] },
  { path: '/privacy', heading: 'Privacy Policy', texts: ['What we store', 'Cookie Policy'] },
  {
    path: '/copyright',
    heading: 'Copyright Policy',
    texts: ['5. Repeat infringers', '10 business days', '8. Contact'],
  },
  {
    path: '/cookies',
    heading: 'Cookie Policy',
    texts: ['1. Essential cookies', '4. Tracking pixels', '6. Flash cookies', '9. Contact'],
  },
  { path: '/pricing', heading: 'Free while in early access', texts: ['500 MB'] },
  { path: '/resources', heading: 'Guides', texts: ['A/B compare', 'takes commit'] },
  { path: '/mobile', heading: 'Takes for iPhone', texts: ['TestFlight'] },
  { path: '/404', heading: 'Page not found', texts: ['404', 'Go to home'] },
];

async function internalLinks(page: Page, origin: string): Promise<string[]> {
  const hrefs = await page
    .locator('a[href]')
    .evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
  return hrefs
    .filter((href) => new URL(href).origin === origin)
    .map((href) => {
      const url = new URL(href);
      return `${url.pathname}${url.search}`;
    });
}

test('every public page shows its heading, its words, a title and a description', async ({
  page,
  baseURL,
}) => {
  const requests = recordRequests(page, baseURL);
  const titles = new Set<string>();
  for (const { path, heading, texts } of PUBLIC_PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading }).first()).toBeVisible();
    const main = page.getByRole('main');
    for (const text of texts) await expect(main.getByText(text).first()).toBeVisible();
    await expect(page).toHaveTitle(/Takes/);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /\S/);
    if (path !== '/login' && path !== '/desktop-return') titles.add(await page.title());
  }
  // Each page names itself.
  expect(titles.size).toBe(PUBLIC_PAGES.length - 2);
  expect(requests.toOtherOrigins()).toEqual([]);
});

test('no internal link on the public pages leads to the 404 page', async ({ page, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  const publicPaths = new Set(PUBLIC_PAGES.map((p) => p.path));
  const isPublic = (pathname: string) => publicPaths.has(pathname) || pathname.startsWith('/blog/');
  const toVisit = PUBLIC_PAGES.map((p) => p.path).filter((p) => p !== '/404');
  const seen = new Set<string>(toVisit);
  const broken: string[] = [];
  while (toVisit.length > 0) {
    const link = toVisit.shift() as string;
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    if (new URL(page.url()).pathname === '/404') broken.push(link);
    // Signed-in screens send visitors to sign in; only public pages are crawled further.
    if (!isPublic(new URL(link, origin).pathname)) continue;
    for (const found of await internalLinks(page, origin)) {
      if (seen.has(found) || found.startsWith('/api/')) continue;
      seen.add(found);
      // Opening it signs in to the demo account; it is the login page with a flag.
      if (found === '/login?demo=true') continue;
      toVisit.push(found);
    }
  }
  expect(broken).toEqual([]);
  expect(seen.has('/login?demo=true')).toBe(true);
  expect(seen.has('/dashboard')).toBe(true);
  // The links to blog posts open real posts.
  for (const link of [...seen].filter((l) => l.startsWith('/blog/'))) {
    await page.goto(link);
    await expect(page.getByRole('link', { name: /Back to all posts/ }).first()).toBeVisible();
    await expect(page.getByText('Post not found')).toHaveCount(0);
  }
});

test('the navbar and footer links open their pages', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [name, path] of [
    ['About Us', '/about'],
    ['Roadmap', '/roadmap'],
    ['Blog', '/blog'],
    ['Download', '/download'],
    ['Home', '/'],
  ] as const) {
    await nav.getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  }

  const footer = page.getByRole('navigation', { name: 'Footer' });
  const footerLinks = await footer.getByRole('link').all();
  expect(footerLinks.length).toBeGreaterThanOrEqual(14);
  const names = await Promise.all(footerLinks.map((link) => link.textContent()));
  for (const name of names) {
    await footer.getByRole('link', { name: name ?? '', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    expect(new URL(page.url()).pathname).not.toBe('/404');
  }
  // The footer links only to this site.
  const outside = await page
    .locator('footer a[href]')
    .evaluateAll((anchors) =>
      anchors
        .map((a) => (a as HTMLAnchorElement).href)
        .filter((href) => new URL(href).origin !== location.origin),
    );
  expect(outside).toEqual([]);
});

test('the landing page links: Learn More, Get Started, Sign up for free, Try demo', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Learn More' }).click();
  await expect(page).toHaveURL(/#features$/);
  await expect(
    page.getByRole('heading', { name: 'Version Control', exact: true }),
  ).toBeInViewport();
  await expect(page.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/login');
  await expect(page.getByRole('link', { name: 'Sign up for free' })).toHaveAttribute(
    'href',
    '/login',
  );
  await expect(page.getByRole('link', { name: 'Try demo' })).toHaveAttribute(
    'href',
    '/login?demo=true',
  );
});

test('an unknown address shows the 404 page with a way home', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page).toHaveURL('/404');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveTitle('Page not found · Takes');
  await page.getByRole('link', { name: 'Go to home' }).click();
  await expect(page).toHaveURL('/');
});

test('the theme choice survives a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/about');
  const html = page.locator('html');
  await expect(html).not.toHaveClass(/dark/);
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(html).toHaveClass(/dark/);
  await page.reload();
  await expect(html).toHaveClass(/dark/);
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await page.reload();
  await expect(html).not.toHaveClass(/dark/);
});

test('a contact message is stored and thanked for, then the form is empty', async ({ page }) => {
  await page.goto('/contact');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();

  await page.getByRole('tab', { name: 'Labels' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Mara Quinn');
  await page.getByLabel('Email', { exact: true }).fill('mara@example.com');
  await page.getByLabel('Company Name (optional)').fill('Quinn Records');
  await page.getByLabel('Artists Represented (optional)').fill('about 12');
  await page.getByLabel('Subject', { exact: true }).fill('Using Takes with our roster');
  await page
    .getByLabel('Message', { exact: true })
    .fill('Could our artists share mixes with us through Takes?');

  const saved = page.waitForResponse(
    (response) => response.url().endsWith('/api/contact') && response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Send Message' }).click();
  expect((await saved).status()).toBe(201);
  await expect(page.getByRole('alert')).toHaveText(
    'Thank you for your message. We will get back to you soon!',
  );
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('');
});

test('the download page reports a missing installer in red', async ({ page }) => {
  await page.goto('/download');
  await page.getByRole('button', { name: /Linux/ }).click();
  // The e2e server has no installers configured, so it answers { error: 'no_url' }.
  const error = page.getByRole('alert').getByText('no_url', { exact: true });
  await expect(error).toBeVisible();
  await expect(error).toHaveClass(/text-red-600/);
  await expect(page.getByRole('button', { name: /macOS/ })).toBeEnabled();

  // Instead, the takes CLI this server offers as one npm package, and how to use it.
  await expect(
    page.getByRole('heading', { name: 'Use the takes command-line tool instead' }),
  ).toBeVisible();
  const origin = new URL(page.url()).origin;
  await expect(
    page.getByText(`npm install -g ${origin}/downloads/takes-cli.tgz`, { exact: true }),
  ).toBeVisible();
  await expect(page.getByText('takes link register', { exact: true })).toBeVisible();
  const tarball = await page.request.get(`${origin}/downloads/takes-cli.tgz`);
  expect(tarball.status()).toBe(200);
  expect(tarball.headers()['content-type']).toBe('application/gzip');
  // A gzip stream (the npm package built by cli/build.mjs).
  expect([...(await tarball.body()).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
});
