// @ts-check
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CliError } from './errors.js';
import { createProgress } from './progress.js';

/** @import { ReadableStream as NodeReadableStream } from 'node:stream/web' */

/** A download that receives nothing for this long is given up. */
export const IDLE_TIMEOUT_MS = 60_000;

/**
 * The file name a Content-Disposition header gives (RFC 6266: `filename*` first), as sent: it
 * still has to be made safe before it touches the disk.
 * @param {string | null} header
 * @returns {string | undefined}
 */
export function dispositionName(header) {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*([^';]*)'[^';]*'([^;]+)/i.exec(header);
  if (star?.[2]) {
    try {
      return decodeURIComponent(star[2].trim());
    } catch {
      // Badly encoded: the plain filename below, if any.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted?.[1] !== undefined) return quoted[1].replace(/\\(.)/g, '$1');
  return /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1];
}

/**
 * A timer that aborts a download once nothing has come for IDLE_TIMEOUT_MS; `arm` restarts it.
 * @param {string} name what is being downloaded, for the message
 */
export function idleTimer(name) {
  const controller = new AbortController();
  const stalled = new CliError(
    `Nothing came from the server for ${IDLE_TIMEOUT_MS / 1000} s while downloading ${name}. Run the same command again.`,
  );
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(stalled), IDLE_TIMEOUT_MS);
  };
  arm();
  return { signal: controller.signal, stalled, arm, stop: () => clearTimeout(timer) };
}

/**
 * Streams a response's body into a hidden temporary file beside `file` and renames it into place
 * only once whole, so a cut download never leaves half a file under the final name.
 * @param {Response} response
 * @param {{
 *   file: string;
 *   stderr?: NodeJS.WriteStream | undefined;
 *   onData?: (() => void) | undefined;
 * }} options with `stderr`, a progress bar
 * @returns {Promise<number>} the size written
 */
export async function saveResponse(response, options) {
  const name = path.basename(options.file);
  const temp = path.join(path.dirname(options.file), `.${name}.part`);
  const total = Number(response.headers.get('content-length')) || 0;
  const progress = options.stderr
    ? createProgress(options.stderr, `Downloading ${name}`, total)
    : undefined;
  let received = 0;
  /** @type {fs.promises.FileHandle} */
  let handle;
  try {
    handle = await fs.promises.open(temp, 'w', 0o644);
  } catch (error) {
    await response.body?.cancel();
    throw new CliError(`Could not write ${options.file}: ${errorText(error)}`);
  }
  try {
    if (response.body) {
      const body = Readable.fromWeb(/** @type {NodeReadableStream<Uint8Array>} */ (response.body));
      for await (const chunk of body) {
        const bytes = /** @type {Buffer} */ (chunk);
        options.onData?.();
        await handle.write(bytes);
        received += bytes.length;
        progress?.update(received);
      }
    }
    await handle.sync();
    await handle.close();
    progress?.finish();
    if (total > 0 && received !== total)
      throw new CliError(
        `The download of ${name} was cut short (${received} of ${total} bytes). Run the same command again.`,
      );
    await fs.promises.rename(temp, options.file);
    return received;
  } catch (error) {
    progress?.finish();
    await handle.close().catch(() => undefined);
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

/** @param {unknown} error */
export function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}
