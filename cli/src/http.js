// @ts-check
import { apiErrorFrom, createApiClient } from '@takes/contract/runtime';
import { CliError } from './errors.js';

/** @import { ApiClient, ApiError, CallArgs, Endpoint, Result, RouteOf } from '@takes/contract' */

const REQUEST_TIMEOUT_MS = 60_000;

/**
 * The contract's typed client for one Takes server, as the CLI sends requests: each with a
 * timeout, redirects followed, and a network failure as a message that names the server.
 * @param {string} server
 * @param {() => Record<string, string>} [headers] a bearer token, or a session's cookie and origin
 * @returns {ApiClient}
 */
export function serverClient(server, headers) {
  return createApiClient({
    baseUrl: server,
    fetch: (url, init) =>
      fetch(url, {
        ...init,
        // The client leaves redirects to its caller ('manual'); the CLI calls only JSON
        // endpoints and has always followed them.
        redirect: 'follow',
        signal: init?.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      }),
    ...(headers ? { headers } : {}),
    onNetworkError: (error) => unreachable(server, error),
  });
}

/**
 * Calls an endpoint through the client; its JSON body, or the server's refusal as a CliError.
 * @template {Endpoint} E
 * @param {ApiClient} client
 * @param {string} server
 * @param {E} endpoint
 * @param {CallArgs<E>} args
 * @returns {Promise<Result<E>>}
 */
export async function callServer(client, server, endpoint, ...args) {
  return resultOf(await client.fetch(endpoint, ...args), server);
}

/**
 * The typed JSON body of a successful answer to a descriptor's request; a refusal becomes the
 * server's own message and status. The CLI reads the Response itself rather than through
 * `client.call`: its messages fall back to the status line, and name a server whose success is
 * not JSON ('is this a Takes server?'), which an ApiError does not carry.
 * @template {Endpoint} E
 * @param {Response} response
 * @param {string} server
 * @param {E | RouteOf<E>} [_endpoint] names the result's type
 * @returns {Promise<Result<E>>}
 */
export async function resultOf(response, server, _endpoint) {
  if (!response.ok) throw refusalOf(await apiErrorFrom(response), response.statusText);
  return /** @type {Result<E>} */ (await readJson(response, server));
}

/**
 * @param {string} server
 * @param {unknown} error
 */
export function unreachable(server, error) {
  const reason = networkReason(error);
  return new CliError(
    `Could not reach the Takes server at ${server}${reason ? ` (${reason})` : ''}`,
  );
}

/** @param {unknown} error */
function networkReason(error) {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time';
  /** @type {unknown} */
  let current = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = /** @type {NodeJS.ErrnoException} */ (current).code;
    if (code === 'ECONNREFUSED') return 'connection refused';
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unknown host';
    if (code === 'ECONNRESET') return 'connection reset';
    if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'timed out';
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}

/**
 * The JSON body of a successful answer; a refusal becomes the server's own message and status.
 * @param {Response} response
 * @param {string} server
 * @returns {Promise<unknown>}
 */
export async function readJson(response, server) {
  const text = await response.text();
  if (!response.ok) throw refusal(response.status, response.statusText, text);
  if (response.status === 204 || text === '') return undefined;
  try {
    return /** @type {unknown} */ (JSON.parse(text));
  } catch {
    throw new CliError(
      `Unexpected answer from ${server} (HTTP ${response.status}); is this a Takes server?`,
    );
  }
}

/**
 * The server's refusal as read by the client: its message, else the status line, with the status.
 * @param {ApiError} error
 * @param {string} statusText
 */
export function refusalOf(error, statusText) {
  const message = error.serverMessage || statusText || 'The server refused the request';
  return new CliError(`${message} (HTTP ${error.status})`, { status: error.status });
}

/**
 * The same refusal from a raw answer (the streaming upload reads its answer itself).
 * @param {number} status
 * @param {string} statusText
 * @param {string} text the body, `{ "error": "…" }` from a Takes server
 */
export function refusal(status, statusText, text) {
  let message = '';
  try {
    const body = /** @type {unknown} */ (JSON.parse(text));
    if (typeof body === 'object' && body !== null && 'error' in body) {
      const error = /** @type {{ error: unknown }} */ (body).error;
      if (typeof error === 'string') message = error;
    }
  } catch {
    // Not JSON (a proxy's error page): fall back to the status line.
  }
  if (!message) message = statusText || 'The server refused the request';
  return new CliError(`${message} (HTTP ${status})`, { status });
}
