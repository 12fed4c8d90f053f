import { expect, type APIRequestContext, type Page } from '@playwright/test';
import {
  createApiClient,
  type ApiClient,
  type CallArgs,
  type Endpoint,
  type Result,
} from '@takes/contract';

/**
 * A fetch over Playwright's request context: it shares the browser context's cookies, so a call
 * is made as the person signed in on the page.
 */
export function playwrightFetch(request: APIRequestContext): typeof fetch {
  return async (input, init = {}) => {
    const sent = new Request(input instanceof URL ? input.href : input, init);
    const data = sent.body === null ? undefined : Buffer.from(await sent.arrayBuffer());
    const headersSent: Record<string, string> = {};
    sent.headers.forEach((value, name) => (headersSent[name] = value));
    const response = await request.fetch(sent.url, {
      method: sent.method,
      headers: headersSent,
      ...(data ? { data } : {}),
      maxRedirects: 0,
      failOnStatusCode: false,
    });
    const headers = new Headers();
    for (const { name, value } of response.headersArray()) headers.append(name, value);
    const empty = [101, 204, 205, 304].includes(response.status());
    return new Response(empty ? null : new Uint8Array(await response.body()), {
      status: response.status(),
      headers,
    });
  };
}

/** The typed API client, calling as the person signed in on `page`. */
export function apiAs(page: Page, baseURL: string | undefined): ApiClient {
  return apiWith(page.request, baseURL);
}

/**
 * The typed API client over a request context (a page's, or one of its own). The Origin header is
 * what a browser sends; the server's CSRF check expects it.
 */
export function apiWith(request: APIRequestContext, baseURL: string | undefined): ApiClient {
  if (!baseURL) throw new Error('baseURL must be set in playwright.config.ts');
  const origin = new URL(baseURL).origin;
  return createApiClient({
    baseUrl: origin,
    fetch: playwrightFetch(request),
    headers: () => ({ origin }),
  });
}

/**
 * Calls an endpoint, checks it answered with exactly `status` (showing the body when not), and
 * returns its typed JSON body: set-up that fails says why at once.
 */
export async function callExpecting<E extends Endpoint>(
  api: ApiClient,
  status: number,
  endpoint: E,
  ...args: CallArgs<E>
): Promise<Result<E>> {
  const response = await api.fetch(endpoint, ...args);
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (text ? JSON.parse(text) : undefined) as Result<E>;
}
