import type { Page } from '@playwright/test';

const WEBSOCKET_TO_HTTP: Record<string, string> = { 'ws:': 'http:', 'wss:': 'https:' };

/** Same-origin check that also maps a websocket URL onto the http origin it belongs to. */
export function isOwnOrigin(url: string, ownOrigin: string): boolean {
  const parsed = new URL(url);
  const protocol = WEBSOCKET_TO_HTTP[parsed.protocol] ?? parsed.protocol;
  return `${protocol}//${parsed.host}` === ownOrigin;
}

/**
 * Starts recording every request the page's browser context makes (pages and service workers,
 * plus websockets of this page). Call the returned function to get the ones to other origins.
 */
export function recordRequests(page: Page, baseURL: string | undefined) {
  if (!baseURL) throw new Error('baseURL must be set in playwright.config.ts');
  const ownOrigin = new URL(baseURL).origin;
  const requested: string[] = [];
  page.context().on('request', (request) => requested.push(request.url()));
  page.on('websocket', (socket) => requested.push(socket.url()));
  return {
    all: () => [...requested],
    toOtherOrigins: () =>
      requested.filter(
        (url) =>
          !url.startsWith('data:') && !url.startsWith('blob:') && !isOwnOrigin(url, ownOrigin),
      ),
  };
}
