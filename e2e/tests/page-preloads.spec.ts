import { chunkModules, manifest, modulesIn, staticFiles } from './support/build';
import { expect, test } from './support/test';
import { createProject, signedInAt } from './support/workspace';

/**
 * A first visit to a page behind sign-in: the HTML the server sends lists the page's own files
 * for preloading (server/src/http/spa.ts, from dist/.vite/page-preloads.json), so the browser asks
 * for them beside the app's bundle, before the app has run and checked the session. And the
 * dashboard and project pages load no form schemas (zod) until a dialog that needs them opens.
 */

const preloadsIn = (html: string) =>
  [
    ...html.matchAll(
      /<link rel="modulepreload" crossorigin (?:fetchpriority="low" )?href="\/([^"]+)">/g,
    ),
  ].map((m) => m[1]);

const isZod = (module: string) => module.includes('node_modules/zod/');

for (const { label, source, path, data } of [
  {
    label: 'dashboard',
    source: 'src/features/dashboard/dashboard-page.tsx',
    path: () => '/dashboard',
    // A signed-in visit's HTML lists its counts and its two project lists too.
    data: () => ['/api/stats', '/api/projects/shared', '/api/projects?limit=50'],
  },
  {
    label: 'project page',
    source: 'src/features/projects/project-page.tsx',
    path: (projectId: string) => `/projects/${projectId}`,
    // A signed-in visit's HTML lists the project and its branches too (its heading waits for both).
    data: (projectId: string) => [
      `/api/projects/${projectId}`,
      `/api/projects/${projectId}/branches`,
    ],
  },
]) {
  test(`the ${label} is fetched beside the app's bundle, without zod`, async ({
    page,
    baseURL,
  }) => {
    await signedInAt(page, baseURL, `preload-${label.replace(' ', '-')}`);
    const project = await createProject(page, baseURL, 'Preloaded');
    const address = path(project.id);
    const listedData = data(project.id);
    const pageFile = manifest[source]?.file;
    expect(pageFile, `${source} has its own chunk`).toBeTruthy();

    const html = await (await page.request.get(address)).text();
    const listed = preloadsIn(html);
    expect(listed).toContain(pageFile);
    // The entry's own files (listed by the build) and the page's, each once.
    expect(new Set(listed).size).toBe(listed.length);
    const entryFiles = staticFiles('index.html');
    expect(listed.filter((file) => !entryFiles.has(file!)).length).toBeGreaterThan(1);
    expect(modulesIn(listed as string[]).some(isZod)).toBe(false);

    // Leave the signed-in dashboard first: its own requests (notifications, live events) must
    // not be counted as this visit's.
    await page.goto('about:blank');
    const order: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === `/${pageFile}`) order.push(url.pathname);
      if (url.pathname.startsWith('/api/')) order.push(url.pathname + url.search);
    });
    const scripts: string[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js'))
        scripts.push(url.pathname.slice(1));
    });
    await page.goto(address);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Asked for from the HTML: before any request the app itself makes once it runs.
    const fromHtml = new Set(['/api/auth/session', ...listedData]);
    const appRequests = order.filter((p) => p.startsWith('/api/') && !fromHtml.has(p));
    expect(appRequests.length).toBeGreaterThan(0);
    expect(order.indexOf(`/${pageFile}`)).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(`/${pageFile}`)).toBeLessThan(order.indexOf(appRequests[0]!));
    // The HTML lists the session request too; the app takes that answer instead of asking again.
    expect(html).toContain('<link rel="preload" href="/api/auth/session" as="fetch" crossorigin>');
    expect(order.filter((request) => request === '/api/auth/session')).toHaveLength(1);
    // And the page's own data: each asked for once, by the HTML, the app taking the answer (an
    // app asking with another query string would show here as a second request).
    const pathOf = (href: string) => href.split('?', 1)[0];
    for (const href of listedData) {
      expect(html).toContain(`<link rel="preload" href="${href}" as="fetch" crossorigin>`);
      expect(
        order.filter((request) => pathOf(request) === pathOf(href)),
        href,
      ).toEqual([href]);
    }
    expect(modulesIn(scripts).some(isZod), 'a zod module was downloaded').toBe(false);
    // The build does have zod, for the dialogs and forms that check what is typed.
    expect(Object.values(chunkModules).flat().some(isZod)).toBe(true);
  });
}
