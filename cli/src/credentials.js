// @ts-check
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const DEFAULT_SERVER = 'http://localhost:8080';

/**
 * What `takes login` saves.
 * @typedef {object} Credentials
 * @property {string} server
 * @property {string} accessToken
 * @property {string} refreshToken
 * @property {string} expiresAt ISO time the access token stops working.
 * @property {string} [email]
 */

/**
 * Where credentials live: $TAKES_CONFIG_DIR, else $XDG_CONFIG_HOME/takes, else ~/.config/takes.
 * @param {NodeJS.ProcessEnv} env
 */
export function configDir(env) {
  if (env.TAKES_CONFIG_DIR) return env.TAKES_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, 'takes');
  return path.join(os.homedir(), '.config', 'takes');
}

/** The saved credentials file, read and written as a whole. */
export class CredentialStore {
  /** @param {string} dir */
  constructor(dir) {
    this.file = path.join(dir, 'credentials.json');
  }

  /** @returns {Credentials | undefined} */
  read() {
    let text;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const parsed = /** @type {unknown} */ (JSON.parse(text));
      return isCredentials(parsed) ? parsed : undefined;
    } catch {
      // A damaged file is the same as none: `takes login` writes a new one.
      return undefined;
    }
  }

  /** @param {Credentials} credentials */
  write(credentials) {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    // Write beside it and rename, so a crash never leaves half a file; 0600 from the start.
    const temp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
    fs.chmodSync(temp, 0o600);
    fs.renameSync(temp, this.file);
  }

  /** @returns {boolean} whether there was anything to remove */
  remove() {
    try {
      fs.unlinkSync(this.file);
      return true;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return false;
      throw error;
    }
  }
}

/**
 * @param {unknown} value
 * @returns {value is Credentials}
 */
function isCredentials(value) {
  if (typeof value !== 'object' || value === null) return false;
  const v = /** @type {Record<string, unknown>} */ (value);
  return (
    typeof v.server === 'string' &&
    typeof v.accessToken === 'string' &&
    typeof v.refreshToken === 'string' &&
    typeof v.expiresAt === 'string'
  );
}

/**
 * The server to talk to: --server, else $TAKES_SERVER, else the one signed in to, else the default.
 * @param {string | undefined} flag
 * @param {NodeJS.ProcessEnv} env
 * @param {Credentials | undefined} saved
 */
export function resolveServer(flag, env, saved) {
  const raw = flag ?? env.TAKES_SERVER ?? saved?.server ?? DEFAULT_SERVER;
  return normalizeServer(raw);
}

/**
 * `localhost:8080` → `http://localhost:8080`; no trailing slash.
 * @param {string} raw
 */
export function normalizeServer(raw) {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url;
  try {
    url = new URL(withScheme);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
