// @ts-check
import fs from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  apiErrorFrom,
  endpoints,
  MARKER_EXTENSIONS,
  MARKER_FORMAT_LABELS,
  MARKER_FORMATS,
  MARKER_MESSAGES,
  MarkerFileError,
  readMarkerFile,
} from '@takes/contract/runtime';
import { CliError, UsageError } from '../errors.js';
import { formatBytes } from '../format.js';
import { refusalOf, serverClient } from '../http.js';
import { isSafeName, safeName } from '../safe-name.js';
import { dispositionName, idleTimer, saveResponse } from '../save-file.js';
import { checkOrigin, parseVersionRef } from '../version-ref.js';
import { stringOption } from './command.js';

/** @import { ReadableStream as NodeReadableStream } from 'node:stream/web' */
/** @import { MarkerFormat } from '@takes/contract' */
/** @import { Context } from '../context.js' */
/** @import { VersionRef } from '../version-ref.js' */
/** @import { Command } from './command.js' */

/** The format an output file's extension stands for. */
const BY_EXTENSION = /** @type {Record<string, MarkerFormat>} */ ({
  wav: 'wav',
  mid: 'midi',
  midi: 'midi',
  csv: 'reaper',
  txt: 'audacity',
});

/** @type {Command} */
export const markersCommand = {
  name: 'markers',
  summary: "Export a version's comments as DAW markers",
  usage: `Usage: takes markers VERSION [--format FORMAT] [-o FILE] [--resolved] [--force]

Writes a version's open comments as a marker file for a DAW: each comment a marker at its time,
a range comment a region (where the format has them).

VERSION is the version's id, the address of its page (https://…/projects/…/versions/ID) or a
share link (https://…/share/KEY: no sign-in needed).

Options:
  --format FORMAT  wav       the audio with cue markers (needs download access)
                   midi      a MIDI file of markers (Logic, Cubase, Pro Tools, …)
                   reaper    a REAPER marker CSV (range comments as regions)
                   audacity  an Audacity label track
                   default: from FILE's extension (.wav, .mid or .midi, .csv, .txt)
  -o, --output FILE
                   where to write it (- for stdout; a folder: the server's name in it);
                   default: the server's file name in the current folder
  --resolved       include resolved comments too
  --force          replace FILE when it exists`,
  options: {
    format: { type: 'string' },
    output: { type: 'string', short: 'o' },
    resolved: { type: 'boolean' },
    force: { type: 'boolean' },
  },
  positionals: 1,
  async run(ctx, { values, positionals }) {
    const raw = positionals[0]?.trim();
    if (!raw)
      throw new UsageError(
        "Which version? Give its id, its page's address or a share link.",
        markersCommand.usage,
      );
    const output = stringOption(values, 'output');
    if (output !== undefined && output.trim() === '')
      throw new UsageError('-o needs a file name', markersCommand.usage);
    const target = outputTarget(output);
    const format = chooseFormat(stringOption(values, 'format'), target);
    const force = values.force === true;
    if (target.kind === 'file' && !force) refuseExisting(target.file);
    if (target.kind === 'stdout' && format === 'wav' && ctx.stdout.isTTY)
      throw new UsageError('A WAV is not for a terminal: give -o FILE.', markersCommand.usage);

    const ref = parseVersionRef(raw, ctx.server);
    const query = {
      format,
      resolved: /** @type {'include' | 'exclude'} */ (values.resolved ? 'include' : 'exclude'),
    };
    const timer = idleTimer('the markers');
    try {
      const response = await requestMarkers(ctx, ref, query, timer.signal);
      if (!response.ok) throw refusalOf(await apiErrorFrom(response), response.statusText);
      if (target.kind === 'stdout') {
        const bytes = await writeOut(response, ctx.stdout, timer.arm, format !== 'wav');
        const count = format === 'wav' ? '' : markerCount(format, bytes);
        if (count) ctx.note(`${MARKER_FORMAT_LABELS[format]}, ${count}`);
        return;
      }
      const file =
        target.kind === 'file'
          ? target.file
          : path.join(target.dir, serverFileName(response, format));
      if (target.kind === 'dir' && !force) {
        try {
          refuseExisting(file);
        } catch (error) {
          await response.body?.cancel();
          throw error;
        }
      }
      const size = await saveResponse(response, {
        file,
        stderr: format === 'wav' ? ctx.stderr : undefined,
        onData: timer.arm,
      });
      const count = format === 'wav' ? '' : markerCount(format, fs.readFileSync(file));
      const details = [MARKER_FORMAT_LABELS[format], formatBytes(size), count].filter(Boolean);
      ctx.print(`Saved ${file} (${details.join(', ')})`);
    } catch (error) {
      if (timer.signal.aborted) throw timer.stalled;
      throw error;
    } finally {
      timer.stop();
    }
  },
};

/**
 * Streams a response's body to stdout; with `keep`, hands back its bytes too (a text or MIDI
 * marker file is small; a WAV is not kept).
 * @param {Response} response
 * @param {NodeJS.WritableStream} stdout
 * @param {() => void} onData
 * @param {boolean} keep
 */
async function writeOut(response, stdout, onData, keep) {
  /** @type {Buffer[]} */
  const chunks = [];
  if (response.body) {
    for await (const chunk of Readable.fromWeb(
      /** @type {NodeReadableStream<Uint8Array>} */ (response.body),
    )) {
      const bytes = /** @type {Buffer} */ (chunk);
      onData();
      if (keep) chunks.push(bytes);
      if (!stdout.write(bytes)) await once(stdout, 'drain');
    }
  }
  return Buffer.concat(chunks);
}

/**
 * @typedef {{ kind: 'stdout' } | { kind: 'file'; file: string } | { kind: 'dir'; dir: string }} Target
 */

/**
 * @param {string | undefined} output
 * @returns {Target}
 */
function outputTarget(output) {
  if (output === '-') return { kind: 'stdout' };
  if (output === undefined) return { kind: 'dir', dir: process.cwd() };
  const file = path.resolve(output);
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return { kind: 'file', file };
  }
  return stat.isDirectory() ? { kind: 'dir', dir: file } : { kind: 'file', file };
}

/**
 * --format, else what the output file's extension says.
 * @param {string | undefined} given
 * @param {Target} target
 * @returns {MarkerFormat}
 */
function chooseFormat(given, target) {
  if (given !== undefined) {
    const format = MARKER_FORMATS.find((f) => f === given.trim().toLowerCase());
    if (!format)
      throw new UsageError(
        `--format must be ${MARKER_FORMATS.slice(0, -1).join(', ')} or ${MARKER_FORMATS.at(-1)}`,
        markersCommand.usage,
      );
    return format;
  }
  const ext = target.kind === 'file' ? path.extname(target.file).slice(1).toLowerCase() : '';
  const byExtension = Object.hasOwn(BY_EXTENSION, ext) ? BY_EXTENSION[ext] : undefined;
  if (byExtension) return byExtension;
  throw new UsageError(
    target.kind === 'file'
      ? `Which format? ${path.basename(target.file)} does not say: give --format ${MARKER_FORMATS.join('|')}.`
      : `Which format? Give --format ${MARKER_FORMATS.join('|')} (or -o FILE with its extension).`,
    markersCommand.usage,
  );
}

/** @param {string} file */
function refuseExisting(file) {
  if (fs.existsSync(file))
    throw new CliError(`${file} already exists. Give --force to replace it.`);
}

/**
 * The marker file from the server: a version's with the saved sign-in, a share link's on the
 * link's own server with its key.
 * @param {Context} ctx
 * @param {VersionRef} ref
 * @param {{ format: MarkerFormat; resolved: 'include' | 'exclude' }} query
 * @param {AbortSignal} signal
 */
async function requestMarkers(ctx, ref, query, signal) {
  const headers = { accept: '*/*' };
  if (ref.kind === 'share') {
    const client = serverClient(ref.origin);
    return client.fetch(endpoints.markers.getShareLinkMarkers, {
      params: { hash: ref.hash },
      query,
      headers,
      signal,
    });
  }
  checkOrigin(ctx, ref.origin);
  return ctx.api().fetch(endpoints.markers.getVersionMarkers, {
    params: { versionId: ref.id },
    query,
    headers,
    signal,
  });
}

/**
 * The server's name for the file (Content-Disposition), made safe, with the format's extension.
 * @param {Response} response
 * @param {MarkerFormat} format
 */
export function serverFileName(response, format) {
  const wanted = MARKER_EXTENSIONS[format];
  const name = safeName(dispositionName(response.headers.get('content-disposition')) ?? '', '');
  const ext = path.extname(name).slice(1).toLowerCase();
  if (name !== '' && (ext === wanted || (format === 'midi' && ext === 'midi'))) return name;
  const stem = safeName(name, 'Markers', 150);
  const withExt = `${stem}.${wanted}`;
  return isSafeName(withExt) ? withExt : `Markers.${wanted}`;
}

/**
 * How many markers a text or MIDI marker file holds, for the closing line ('' when unsure).
 * @param {MarkerFormat} format
 * @param {Uint8Array} bytes
 */
function markerCount(format, bytes) {
  if (format === 'wav') return '';
  try {
    const n = readMarkerFile(bytes).markers.length;
    return `${n} marker${n === 1 ? '' : 's'}`;
  } catch (error) {
    return error instanceof MarkerFileError && error.message === MARKER_MESSAGES.empty
      ? 'no markers'
      : '';
  }
}
