// @ts-check
import { endpoints } from '@takes/contract/runtime';
import { CliError } from './errors.js';
import { resultOf, serverClient } from './http.js';

/** @import { ApiClient, CallArgs, DesktopTokenPair, Endpoint, Result, RouteOf } from '@takes/contract' */
/** @import { Credentials, CredentialStore } from './credentials.js' */

export const SESSION_EXPIRED = 'Your session has expired. Run `takes login` again.';
// Refresh a little before the access token runs out rather than waste a request on a 401.
const EXPIRY_MARGIN_MS = 30_000;

/**
 * @param {string} server
 * @param {DesktopTokenPair} pair from /api/desktop/token or /api/desktop/refresh
 * @param {string | undefined} email
 * @returns {Credentials}
 */
export function credentialsFrom(server, pair, email) {
  return {
    server,
    accessToken: pair.access_token,
    refreshToken: pair.refresh_token,
    expiresAt: new Date(Date.now() + pair.expires_in * 1000).toISOString(),
    ...(email ? { email } : {}),
  };
}

/**
 * Signed-in requests to the Takes API through the contract's typed client, with the saved bearer
 * token. A 401 refreshes the token pair once (saving the rotated pair) and retries.
 */
export class Api {
  /**
   * @param {{ server: string; store: CredentialStore; credentials: Credentials }} options
   */
  constructor(options) {
    this.server = options.server;
    this.store = options.store;
    this.credentials = options.credentials;
    this.client = serverClient(this.server, () => ({
      authorization: `Bearer ${this.credentials.accessToken}`,
    }));
    /** Refreshing sends no access token: the refresh token is the proof. */
    this.anonymous = serverClient(this.server);
  }

  /**
   * Calls an endpoint: its typed JSON body, or the server's refusal as a CliError.
   * @template {Endpoint} E
   * @param {E | RouteOf<E>} endpoint
   * @param {CallArgs<E>} args
   * @returns {Promise<Result<E>>}
   */
  async call(endpoint, ...args) {
    if (Date.parse(this.credentials.expiresAt) - EXPIRY_MARGIN_MS < Date.now()) {
      await this.refresh();
    }
    let response = await this.client.fetch(endpoint, ...args);
    if (response.status === 401) {
      await response.body?.cancel();
      await this.refresh();
      response = await this.client.fetch(endpoint, ...args);
      if (response.status === 401) throw new CliError(SESSION_EXPIRED, { status: 401 });
    }
    return resultOf(response, this.server, endpoint);
  }

  /**
   * Sends a request and hands back the Response as it is (a file, not JSON), with the same token
   * refresh as `call`: a 401 refreshes the pair once and retries.
   * @template {Endpoint} E
   * @param {E | RouteOf<E>} endpoint
   * @param {CallArgs<E>} args
   * @returns {Promise<Response>}
   */
  async fetch(endpoint, ...args) {
    await this.accessToken();
    let response = await this.client.fetch(endpoint, ...args);
    if (response.status === 401) {
      await response.body?.cancel();
      await this.refresh();
      response = await this.client.fetch(endpoint, ...args);
      if (response.status === 401) {
        await response.body?.cancel();
        throw new CliError(SESSION_EXPIRED, { status: 401 });
      }
    }
    return response;
  }

  /** The current access token, refreshed first when it is about to run out (for raw requests). */
  async accessToken() {
    if (Date.parse(this.credentials.expiresAt) - EXPIRY_MARGIN_MS < Date.now()) {
      await this.refresh();
    }
    return this.credentials.accessToken;
  }

  /**
   * This Api as the contract's client, for its flows (publishBounceFile): its calls refresh the
   * token and fail with the CLI's messages like any other.
   * @returns {ApiClient}
   */
  asClient() {
    return { ...this.client, call: (endpoint, ...args) => this.call(endpoint, ...args) };
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
    const refreshEndpoint = endpoints.desktop.refreshDesktopToken;
    const response = await this.anonymous.fetch(refreshEndpoint, {
      body: { refresh_token: this.credentials.refreshToken },
    });
    if (response.status === 400 || response.status === 401) {
      await response.body?.cancel();
      throw new CliError(SESSION_EXPIRED, { status: response.status });
    }
    const pair = await resultOf(response, this.server, refreshEndpoint);
    this.credentials = credentialsFrom(this.server, pair, this.credentials.email);
    this.store.write(this.credentials);
  }
}
