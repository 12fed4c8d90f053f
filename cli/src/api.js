// @ts-check
import { CliError } from './errors.js';
import { fetchServer, readJson } from './http.js';

/** @import { Credentials, CredentialStore } from './credentials.js' */

export const SESSION_EXPIRED = 'Your session has expired. Run `takes login` again.';
// Refresh a little before the access token runs out rather than waste a request on a 401.
const EXPIRY_MARGIN_MS = 30_000;

/**
 * The token pair from /api/desktop/token and /api/desktop/refresh.
 * @typedef {{ accessToken: string; refreshToken: string; tokenType: 'Bearer'; expiresIn: number }} TokenPair
 */

/**
 * @param {string} server
 * @param {TokenPair} pair
 * @param {string | undefined} email
 * @returns {Credentials}
 */
export function credentialsFrom(server, pair, email) {
  return {
    server,
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    expiresAt: new Date(Date.now() + pair.expiresIn * 1000).toISOString(),
    ...(email ? { email } : {}),
  };
}

/**
 * Signed-in requests to the Takes API with the saved bearer token. A 401 refreshes the token
 * pair once (saving the rotated pair) and retries.
 */
export class Api {
  /**
   * @param {{ server: string; store: CredentialStore; credentials: Credentials }} options
   */
  constructor(options) {
    this.server = options.server;
    this.store = options.store;
    this.credentials = options.credentials;
  }

  /**
   * @template T
   * @param {string} path
   * @returns {Promise<T>} the JSON body, typed by the caller after the contract
   */
  async get(path) {
    return /** @type {T} */ (await this.request('GET', path));
  }

  /**
   * @template T
   * @param {string} path
   * @param {unknown} body
   * @returns {Promise<T>}
   */
  async post(path, body) {
    return /** @type {T} */ (await this.request('POST', path, body));
  }

  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @returns {Promise<unknown>}
   */
  async request(method, path, body) {
    if (Date.parse(this.credentials.expiresAt) - EXPIRY_MARGIN_MS < Date.now()) {
      await this.refresh();
    }
    let response = await this.send(method, path, body);
    if (response.status === 401) {
      await response.body?.cancel();
      await this.refresh();
      response = await this.send(method, path, body);
      if (response.status === 401) throw new CliError(SESSION_EXPIRED, { status: 401 });
    }
    return readJson(response, this.server);
  }

  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} body
   */
  send(method, path, body) {
    /** @type {Record<string, string>} */
    const headers = { authorization: `Bearer ${this.credentials.accessToken}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetchServer(this.server, path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** Rotates the token pair; the server uses up the old refresh token, so the new one is saved at once. */
  async refresh() {
    // Another `takes` run may have rotated the pair already: start from what is on disk.
    const onDisk = this.store.read();
    if (
      onDisk &&
      onDisk.server === this.server &&
      onDisk.refreshToken !== this.credentials.refreshToken
    ) {
      this.credentials = onDisk;
      if (Date.parse(onDisk.expiresAt) - EXPIRY_MARGIN_MS > Date.now()) return;
    }
    const response = await fetchServer(this.server, '/api/desktop/refresh', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: this.credentials.refreshToken }),
    });
    if (response.status === 400 || response.status === 401) {
      await response.body?.cancel();
      throw new CliError(SESSION_EXPIRED, { status: response.status });
    }
    const pair = /** @type {TokenPair} */ (await readJson(response, this.server));
    this.credentials = credentialsFrom(this.server, pair, this.credentials.email);
    this.store.write(this.credentials);
  }
}
