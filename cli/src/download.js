// @ts-check
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { apiErrorFrom, endpoints } from '@takes/contract/runtime';
import { SESSION_EXPIRED } from './api.js';
import { CliError } from './errors.js';
import { refusalOf, unreachable } from './http.js';
import { createProgress } from './progress.js';
import { isSafeName } from './safe-name.js';

/** @import { ReadableStream as NodeReadableStream } from 'node:stream/web' */
/** @import { Api } from './api.js' */

/** A download that receives nothing for this long is given up. */
const IDLE_TIMEOUT_MS = 60_000;

/** @typedef {'original' | 'high' | 'standard'} Quality */

/**
 * @typedef {{ status: 'downloaded'; size: number; etag: string | undefined }
 *   | { status: 'unchanged' }
 *   | { status: 'unavailable'; reason: string }} DownloadResult
 */

/**
 * Downloads one bounce's audio in one quality to `file`: into a hidden temporary file beside it,
 * renamed into place only once whole (and checked against its content hash when the ETag is
 * one), so a cut download never leaves half a file under the final name. With `etag`, the server
 * answers 304 when the file there is the same, and nothing is downloaded.
 * @param {Api} api
 * @param {{
 *   repoId: string;
 *   bounceId: string;
 *   quality: Quality;
 *   file: string;
 *   etag?: string | undefined;
 *   stderr: NodeJS.WriteStream;
 * }} options
 * @returns {Promise<DownloadResult>}
 */
export async function downloadBounce(api, options) {
  const name = path.basename(options.file);
  const controller = new AbortController();
  const stalled = new CliError(
    `Nothing came from the server for ${IDLE_TIMEOUT_MS / 1000} s while downloading ${name}. Run the same command again.`,
  );
  /** @type {NodeJS.Timeout | undefined} */
  let idle;
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => controller.abort(stalled), IDLE_TIMEOUT_MS);
  };
  arm();
  let receiving = false;
  try {
    const response = await request(api, options, controller.signal);
    if (response.status === 304) {
      await response.body?.cancel();
      return { status: 'unchanged' };
    }
    if (response.status === 404) {
      const error = await apiErrorFrom(response);
      return { status: 'unavailable', reason: error.serverMessage ?? 'not found on the server' };
    }
    if (!response.ok) throw refusalOf(await apiErrorFrom(response), response.statusText);
    const type = response.headers.get('content-type') ?? '';
    // Until its renditions exist the server answers with the original: not what was asked for.
    if (options.quality !== 'original' && !type.startsWith('audio/mpeg')) {
      await response.body?.cancel();
      return { status: 'unavailable', reason: `no ${options.quality} rendition yet` };
    }
    const etag = strongEtag(response.headers.get('etag'));
    receiving = true;
    const size = await saveBody(response, options, arm);
    return { status: 'downloaded', size, etag };
  } catch (error) {
    if (controller.signal.aborted) throw stalled;
    if (error instanceof CliError) throw error;
    if (!receiving) throw unreachable(api.server, error);
    throw new CliError(
      `The connection to ${api.server} was cut while downloading ${name}. Run the same command again.`,
    );
  } finally {
    clearTimeout(idle);
  }
}

/**
 * The stream request, with the saved token; a 401 refreshes the token pair once and retries.
 * @param {Api} api
 * @param {{ repoId: string; bounceId: string; quality: Quality; etag?: string | undefined }} options
 * @param {AbortSignal} signal
 */
async function request(api, options, signal) {
  const send = () =>
    api.client.fetch(endpoints.repos.streamBounce, {
      params: { id: options.repoId, bounceId: options.bounceId },
      query: { quality: options.quality },
      headers: { accept: '*/*', ...(options.etag ? { 'if-none-match': options.etag } : {}) },
      signal,
    });
  await api.accessToken();
  let response = await send();
  if (response.status === 401) {
    await response.body?.cancel();
    await api.refresh();
    response = await send();
    if (response.status === 401) {
      await response.body?.cancel();
      throw new CliError(SESSION_EXPIRED, { status: 401 });
    }
  }
  return response;
}

/**
 * Streams the body into a temporary file beside `options.file`, checks it, and renames it into place.
 * @param {Response} response
 * @param {{ file: string; stderr: NodeJS.WriteStream }} options
 * @param {() => void} onData called with each chunk (keeps the idle timer from firing)
 * @returns {Promise<number>} the size written
 */
async function saveBody(response, options, onData) {
  const name = path.basename(options.file);
  const temp = path.join(path.dirname(options.file), `.${name}.part`);
  const total = Number(response.headers.get('content-length')) || 0;
  const etag = strongEtag(response.headers.get('etag'));
  const hash = createHash('sha256');
  const progress = createProgress(options.stderr, `Downloading ${name}`, total);
  let received = 0;
  const handle = await fs.promises.open(temp, 'w', 0o644);
  try {
    if (response.body) {
      const body = Readable.fromWeb(/** @type {NodeReadableStream<Uint8Array>} */ (response.body));
      for await (const chunk of body) {
        const bytes = /** @type {Buffer} */ (chunk);
        onData();
        hash.update(bytes);
        await handle.write(bytes);
        received += bytes.length;
        progress.update(received);
      }
    }
    if (received === 0) progress.update(0);
    await handle.sync();
    await handle.close();
    progress.finish();
    if (total > 0 && received !== total)
      throw new CliError(
        `The download of ${name} was cut short (${received} of ${total} bytes). Run the same command again.`,
      );
    const sha256 = /^"([0-9a-f]{64})"$/.exec(etag ?? '')?.[1];
    if (sha256 && hash.digest('hex') !== sha256)
      throw new CliError(
        `The download of ${name} does not match its checksum. Run the same command again.`,
      );
    await fs.promises.rename(temp, options.file);
    return received;
  } catch (error) {
    progress.finish();
    await handle.close().catch(() => undefined);
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

/**
 * An ETag that names the content (a weak one names only a version of it), or undefined.
 * @param {string | null} value
 */
function strongEtag(value) {
  return value && value.startsWith('"') ? value : undefined;
}

/**
 * The SHA-256 of a file on disk, as the quoted ETag the server gives content with that hash.
 * @param {string} file
 */
export async function etagOfFile(file) {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(/** @type {Buffer} */ (chunk));
  return `"${hash.digest('hex')}"`;
}

/**
 * What was downloaded into a branch's folder, kept in it as `.takes-pull.json`: per file, the
 * bounce, quality, ETag and size, so the next pull asks only for what changed.
 * @typedef {{ bounce: string; quality: Quality; etag: string | null; size: number }} PulledFile
 */
export class PullState {
  static FILE = '.takes-pull.json';

  /** @param {string} dir the branch's folder */
  constructor(dir) {
    this.file = path.join(dir, PullState.FILE);
    /** @type {Record<string, PulledFile>} */
    this.files = {};
    try {
      const parsed = /** @type {unknown} */ (JSON.parse(fs.readFileSync(this.file, 'utf8')));
      const files =
        typeof parsed === 'object' && parsed !== null && 'files' in parsed
          ? parsed.files
          : undefined;
      if (typeof files === 'object' && files !== null) {
        for (const [name, entry] of Object.entries(files)) {
          if (isSafeName(name) && isPulledFile(entry)) this.files[name] = entry;
        }
      }
    } catch {
      // None yet, or damaged: every file there is checked against the server by its hash.
    }
  }

  /** @param {string} name */
  get(name) {
    return Object.hasOwn(this.files, name) ? this.files[name] : undefined;
  }

  /**
   * @param {string} name
   * @param {PulledFile} entry
   */
  set(name, entry) {
    this.files[name] = entry;
  }

  /** Written beside and renamed, so a crash never leaves half of it. */
  save() {
    const temp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, `${JSON.stringify({ version: 1, files: this.files }, null, 2)}\n`);
    fs.renameSync(temp, this.file);
  }
}

/**
 * @param {unknown} value
 * @returns {value is PulledFile}
 */
function isPulledFile(value) {
  if (typeof value !== 'object' || value === null) return false;
  const v = /** @type {Record<string, unknown>} */ (value);
  return (
    typeof v.bounce === 'string' &&
    (v.quality === 'original' || v.quality === 'high' || v.quality === 'standard') &&
    (typeof v.etag === 'string' || v.etag === null) &&
    typeof v.size === 'number'
  );
}
