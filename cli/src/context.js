// @ts-check
import { Api } from './api.js';
import { CliError } from './errors.js';

/** @import { Credentials, CredentialStore } from './credentials.js' */

/** What every command gets: where to print, the server, and the saved sign-in. */
export class Context {
  /**
   * @param {{
   *   env: NodeJS.ProcessEnv;
   *   stdout: NodeJS.WriteStream;
   *   stderr: NodeJS.WriteStream;
   *   store: CredentialStore;
   *   server: string;
   *   saved: Credentials | undefined;
   * }} options
   */
  constructor(options) {
    this.env = options.env;
    this.stdout = options.stdout;
    this.stderr = options.stderr;
    this.store = options.store;
    this.server = options.server;
    this.saved = options.saved;
  }

  /** @param {string} line */
  print(line) {
    this.stdout.write(`${line}\n`);
  }

  /** Progress and prompts go to stderr, so stdout stays clean for scripts. @param {string} line */
  note(line) {
    this.stderr.write(`${line}\n`);
  }

  /** The signed-in API client for this server, or a message saying how to sign in. */
  api() {
    const saved = this.saved;
    if (!saved) throw new CliError('You are not signed in. Run `takes login` first.');
    if (saved.server !== this.server)
      throw new CliError(
        `You are signed in to ${saved.server}, not ${this.server}. Run \`takes login --server ${this.server}\`.`,
      );
    return new Api({ server: this.server, store: this.store, credentials: saved });
  }
}
