import type { FastifyInstance } from 'fastify';

/**
 * A fetch that answers from the app in-process (Fastify's inject), so tests call the API through
 * the same typed client as the web app and the CLI, without opening a port.
 */
export function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init = {}) => {
    const request = new Request(
      typeof input === 'string' || input instanceof URL
        ? new URL(input, 'http://localhost')
        : input,
      init,
    );
    const url = new URL(request.url);
    const payload = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const response = await app.inject({
      method: request.method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers.entries()),
      ...(payload ? { payload } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, String(item));
    }
    const empty = [101, 204, 205, 304].includes(response.statusCode);
    return new Response(empty ? null : response.rawPayload, {
      status: response.statusCode,
      headers,
    });
  };
}
