// @ts-check
import { CliError } from './errors.js';

const REQUEST_TIMEOUT_MS = 60_000;

/**
 * fetch against the Takes server; a network failure becomes a message that names the server.
 * @param {string} server
 * @param {string} path starts with /api/
 * @param {RequestInit} [init]
 * @returns {Promise<Response>}
 */
export async function fetchServer(server, path, init = {}) {
  try {
    return await fetch(`${server}${path}`, {
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      ...init,
    });
  } catch (error) {
    throw unreachable(server, error);
  }
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
