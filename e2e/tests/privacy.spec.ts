import { expect, test } from '@playwright/test';

// The product promises that the web app talks only to its own origin: no CDN, fonts or analytics.
const ROUTES = ['/', '/about', '/login', '/404', '/dashboard', '/definitely/not/here'];

const WEBSOCKET_TO_HTTP: Record<string, string> = { 'ws:': 'http:', 'wss:': 'https:' };

/** Same-origin check that also maps a websocket URL onto the http origin it belongs to. */
function isOwnOrigin(url: string, ownOrigin: string): boolean {
  const parsed = new URL(url);
  const protocol = WEBSOCKET_TO_HTTP[parsed.protocol] ?? parsed.protocol;
  return `${protocol}//${parsed.host}` === ownOrigin;
}

for (const route of ROUTES) {
  test(`${route} makes no request to another origin`, async ({ page, baseURL }) => {
    if (!baseURL) throw new Error('baseURL must be set in playwright.config.ts');
    const ownOrigin = new URL(baseURL).origin;
    const requested: string[] = [];
    // The context sees requests from every page and service worker, not only this one page.
    page.context().on('request', (request) => requested.push(request.url()));
    page.on('websocket', (socket) => requested.push(socket.url()));

    await page.goto(route);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Let anything the rendered page starts (images, fonts, lazy chunks) go out before checking.
    await page.waitForLoadState('networkidle');

    const offenders = requested.filter(
      (url) => !url.startsWith('data:') && !url.startsWith('blob:') && !isOwnOrigin(url, ownOrigin),
    );
    expect(requested.length, 'the page should have loaded something').toBeGreaterThan(0);
    expect(offenders, `requests to other origins from ${route}`).toEqual([]);
  });
}
