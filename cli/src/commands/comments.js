// @ts-check
import fs from 'node:fs';
import {
  COMMENT_MAX_LENGTH,
  endpoints,
  MARKER_FORMAT_LABELS,
  MARKER_MESSAGES,
  MarkerFileError,
  readMarkerFile,
} from '@takes/contract/runtime';
import { CliError, UsageError } from '../errors.js';
import { formatTime } from '../format.js';
import { ask } from '../prompt.js';
import { errorText } from '../save-file.js';
import { parseVersionRef, versionIdOf } from '../version-ref.js';

/** @import { Marker, MarkerFormat } from '@takes/contract' */
/** @import { Command } from './command.js' */

/** Far more than any marker file holds (500 markers); an audio file given by mistake is not read. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** @type {Command} */
export const commentsImportCommand = {
  name: 'comments import',
  summary: 'Post the markers of a DAW marker file as comments on a version',
  usage: `Usage: takes comments import VERSION FILE [--yes] [--team-only]

Reads FILE, an Audacity label track, a REAPER marker CSV or a MIDI file with markers (told
apart by content, not by name), shows what it will post and asks first. Each marker becomes a
comment under your name at its time; a label or region with an end becomes a range comment.

VERSION is the version's id, the address of its page (https://…/projects/…/versions/ID) or a
share link to it (https://…/share/KEY).

Options:
  -y, --yes    post without asking (needed when stdin is not a terminal)
  --team-only  post them as team-only comments (never shown through a share link)`,
  options: {
    yes: { type: 'boolean', short: 'y' },
    'team-only': { type: 'boolean' },
  },
  positionals: 2,
  async run(ctx, { values, positionals }) {
    const [rawVersion, file] = positionals.map((p) => p.trim());
    if (!rawVersion)
      throw new UsageError(
        "Which version? Give its id, its page's address or a share link.",
        commentsImportCommand.usage,
      );
    if (!file) throw new UsageError('Which marker file? Give FILE.', commentsImportCommand.usage);
    const ref = parseVersionRef(rawVersion, ctx.server);
    const { format, markers } = readMarkers(file);
    const tooLong = markers.findIndex((m) => m.label.length > COMMENT_MAX_LENGTH);
    if (tooLong >= 0)
      throw new CliError(
        `Marker ${tooLong + 1} has a label longer than ${COMMENT_MAX_LENGTH} characters, the most a comment can hold. Nothing was posted.`,
      );

    const api = ctx.api();
    const versionId = await versionIdOf(ctx, ref);
    const version = await api.call(endpoints.versions.getVersion, { params: { versionId } });
    const where = `version ${version.version_number} of ${version.project.name}`;
    const n = markers.length;
    const comments = `${n} comment${n === 1 ? '' : 's'}`;

    ctx.print(`${MARKER_FORMAT_LABELS[format]}: ${comments} for ${where}`);
    ctx.print(markerTable(markers));
    if (values.yes !== true) {
      if (process.stdin.isTTY !== true)
        throw new CliError(
          `Not posting without asking, and stdin is not a terminal to ask on: give --yes to post these ${comments}.`,
        );
      const answer = await ask(`Post ${comments} to ${where}? [y/N]`);
      if (!/^y(es)?$/i.test(answer)) {
        ctx.note('Nothing was posted.');
        return;
      }
    }

    const teamOnly = values['team-only'] === true;
    let posted = 0;
    for (const marker of markers) {
      try {
        await api.call(endpoints.comments.addVersionComment, {
          params: { versionId },
          body: {
            content: marker.label,
            timestamp: marker.start,
            end_timestamp: marker.end,
            team_only: teamOnly,
          },
        });
      } catch (error) {
        const what = `marker ${posted + 1} (${span(marker)} ${JSON.stringify(displayLabel(marker.label))})`;
        const done = posted === 0 ? 'Nothing was posted' : `Posted ${posted} of ${n}`;
        throw new CliError(`${done}: ${what} was refused: ${errorText(error)}`);
      }
      posted++;
    }
    ctx.print(`Posted ${comments} to ${where}.`);
  },
};

/**
 * The markers of a file, or the contract's message for people when it holds none Takes reads.
 * @param {string} file
 * @returns {{ format: MarkerFormat; markers: Marker[] }}
 */
function readMarkers(file) {
  let bytes;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) throw new CliError(`${file} is not a file.`);
    if (stat.size > MAX_FILE_BYTES) throw new CliError(MARKER_MESSAGES.unreadable);
    bytes = fs.readFileSync(file);
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    if (code === 'ENOENT') throw new CliError(`No such file: ${file}`);
    throw new CliError(`Could not read ${file}: ${errorText(error)}`);
  }
  try {
    return readMarkerFile(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    if (error instanceof MarkerFileError) throw new CliError(error.message);
    throw error;
  }
}

/**
 * A marker's time, or its range, as m:ss.mmm.
 * @param {Marker} marker
 */
function span(marker) {
  return marker.end === null
    ? formatTime(marker.start)
    : `${formatTime(marker.start)}-${formatTime(marker.end)}`;
}

/**
 * A label as a terminal should show it: no control characters (an escape sequence in a file
 * could redraw the screen).
 * @param {string} label
 */
function displayLabel(label) {
  // eslint-disable-next-line no-control-regex -- control characters are what is being removed
  return label.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

/**
 * What will be posted: a time or range and the label, one marker a line.
 * @param {Marker[]} markers
 */
export function markerTable(markers) {
  const spans = markers.map(span);
  const width = Math.max('Time'.length, ...spans.map((s) => s.length));
  return [
    `  ${'Time'.padEnd(width)}  Comment`,
    ...markers.map((m, i) => `  ${(spans[i] ?? '').padEnd(width)}  ${displayLabel(m.label)}`),
  ].join('\n');
}
