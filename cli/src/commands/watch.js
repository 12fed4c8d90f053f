// @ts-check
import fs from 'node:fs';
import path from 'node:path';
import { boundedStream } from '../bounded-stream.js';
import { configDir } from '../credentials.js';
import { CliError, UsageError } from '../errors.js';
import { resolveRepo } from '../repos.js';
import { SettlingWatcher } from '../watch-folder.js';
import { PublishQueue } from '../watch-queue.js';
import { WatchState } from '../watch-state.js';
import { requiredOption, stringOption } from './command.js';

/** @import { Command } from './command.js' */

const DEFAULT_SETTLE_SECONDS = 2;
const MIN_SETTLE_SECONDS = 0.1;
const MAX_SETTLE_SECONDS = 3600;

/** @type {Command} */
export const watchCommand = {
  name: 'watch',
  summary: "Publish each new audio file in a folder (a DAW's exports) as a commit",
  usage: `Usage: takes watch DIR --repo REPO [--branch BRANCH] [--settle SECONDS] [-m MESSAGE]

Watches DIR (a DAW's export folder) and publishes every new or changed audio file in it as a
commit on BRANCH with the file as its bounce. A file is published once it has stopped growing
(the same size and modification time for the settle time), and only once: a renamed, copied or
touched file with the same audio is skipped. Files already in DIR that were not published yet
are published at the start, so a watch started again catches up.

What was published is remembered in watch-state.json in the config folder, per folder, server,
repository and branch. Hidden files, files starting with ~ and *.tmp and *.part files are
ignored; subfolders are not watched. A file that is not audio is skipped with a message.
While the server cannot be reached, files wait and are published once it answers again.
Ctrl-C stops after the current upload (press it again to stop at once).

Options:
  --repo REPO         repository name or id
  --branch BRANCH     branch to commit to (default: the repository's default branch, or main)
  --settle SECONDS    how long a file must stay unchanged before it is published (default ${DEFAULT_SETTLE_SECONDS})
  -m, --message MSG   the commit message (default: Bounce "FILE" (DATE TIME), from the file's
                      name and time); the bounce's title is the file name without its extension`,
  options: {
    repo: { type: 'string' },
    branch: { type: 'string' },
    settle: { type: 'string' },
    message: { type: 'string', short: 'm' },
  },
  positionals: 1,
  async run(ctx, { values, positionals }) {
    const dir = positionals[0];
    if (dir === undefined || dir.trim() === '')
      throw new UsageError('A folder to watch is required (DIR)', watchCommand.usage);
    const repoRef = requiredOption(
      watchCommand,
      values,
      'repo',
      'A repository is required (--repo)',
    );
    const settleMs = settleOption(stringOption(values, 'settle')) * 1000;
    const message = stringOption(values, 'message');
    if (message !== undefined && message.trim() === '')
      throw new UsageError('The commit message must not be blank (-m)', watchCommand.usage);
    const folder = checkFolder(dir);

    const api = ctx.api();
    const repo = await resolveRepo(api, repoRef);
    const branch = stringOption(values, 'branch')?.trim() || repo.default_branch || 'main';

    const state = new WatchState({
      configDir: configDir(ctx.env),
      folder,
      server: ctx.server,
      repoId: repo.id,
      branch,
    });
    const queue = new PublishQueue({ ctx, api, repoId: repo.id, branch, message, state });
    const watcher = new SettlingWatcher({
      dir: folder,
      settleMs,
      onSettled: (file) => queue.add(file),
      onError: (error) => ctx.note(`Watching ${folder}: ${error.message}`),
    });

    // Hours on a pipe to a service manager or a log shipper: the output is bounded, and a reader
    // that went away does not end the watch (bounded-stream.js).
    const out = boundedStream(ctx.stdout);
    const err = boundedStream(ctx.stderr);
    ctx.stdout = out.stream;
    ctx.stderr = err.stream;
    let signals = 0;
    const onSignal = () => {
      signals++;
      if (signals > 1) {
        ctx.note('Stopped before the upload was done; the next watch resumes it.');
        process.exit(130);
      }
      const busy = queue.stop();
      void watcher.close();
      if (busy)
        ctx.note(
          `Finishing the current upload (${path.basename(busy.file)}) before stopping; press Ctrl-C again to stop at once.`,
        );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      await watcher.start();
      if (!queue.stopping) {
        ctx.print(
          `Watching ${folder}: new audio files are published to ${repo.name} on ${branch}. Press Ctrl-C to stop.`,
        );
        queue.start();
      }
      await queue.finished;
      ctx.note('Stopped watching.');
    } finally {
      await watcher.close();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await Promise.all([out.close(), err.close()]);
    }
  },
};

/**
 * @param {string | undefined} text
 * @returns {number} seconds
 */
function settleOption(text) {
  if (text === undefined) return DEFAULT_SETTLE_SECONDS;
  const seconds = Number(text);
  if (text.trim() === '' || !Number.isFinite(seconds))
    throw new UsageError(`--settle must be a number of seconds, not "${text}"`, watchCommand.usage);
  if (seconds < MIN_SETTLE_SECONDS || seconds > MAX_SETTLE_SECONDS)
    throw new UsageError(
      `--settle must be from ${MIN_SETTLE_SECONDS} to ${MAX_SETTLE_SECONDS} seconds`,
      watchCommand.usage,
    );
  return seconds;
}

/**
 * The folder's absolute, real path, after making sure it is a folder.
 * @param {string} dir
 */
function checkFolder(dir) {
  let stats;
  try {
    stats = fs.statSync(dir);
  } catch {
    throw new CliError(`Folder not found: ${dir}`);
  }
  if (!stats.isDirectory()) throw new CliError(`Not a folder: ${dir}`);
  try {
    fs.accessSync(dir, fs.constants.R_OK | fs.constants.X_OK);
  } catch {
    throw new CliError(`Cannot read the folder ${dir}: permission denied`);
  }
  return fs.realpathSync(path.resolve(dir));
}
