// @ts-check
import fs from 'node:fs';
import path from 'node:path';
import { endpoints } from '@takes/contract/runtime';
import { CliError } from '../errors.js';
import { shortSha } from '../format.js';
import { publishBounce } from '../publish.js';
import { resolveRepo } from '../repos.js';
import { requiredOption, stringOption } from './command.js';

/** @import { Command } from './command.js' */

const AUDIO_TYPES = /** @type {Record<string, string>} */ ({
  '.wav': 'audio/wav',
  '.wave': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.flac': 'audio/flac',
  '.aif': 'audio/aiff',
  '.aiff': 'audio/aiff',
  '.aifc': 'audio/aiff',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/ogg',
});

/** @type {Command} */
export const commitCommand = {
  name: 'commit',
  summary: 'Commit to a branch and publish a bounce (audio file) onto it',
  usage: `Usage: takes commit --repo REPO [--branch BRANCH] -m MESSAGE [--bounce FILE [--title TITLE]]

Makes a commit on BRANCH (created if new) and, with --bounce, uploads FILE as its bounce.

Options:
  --repo REPO       repository name or id
  --branch BRANCH   branch to commit to (default: the repository's default branch, or main)
  -m, --message MSG the commit message
  --bounce FILE     audio file to publish on the commit (WAV, AIFF, FLAC, MP3, …)
  --title TITLE     the bounce's title (default: the file name without its extension)`,
  options: {
    repo: { type: 'string' },
    branch: { type: 'string' },
    message: { type: 'string', short: 'm' },
    bounce: { type: 'string' },
    title: { type: 'string' },
  },
  async run(ctx, { values }) {
    const repoRef = requiredOption(
      commitCommand,
      values,
      'repo',
      'A repository is required (--repo)',
    );
    const message = requiredOption(
      commitCommand,
      values,
      'message',
      'A commit message is required (-m)',
    );
    const file = stringOption(values, 'bounce');
    const title = stringOption(values, 'title')?.trim();
    const size = file === undefined ? 0 : checkFile(file);

    const api = ctx.api();
    const repo = await resolveRepo(api, repoRef);
    const branch = stringOption(values, 'branch')?.trim() || repo.default_branch || 'main';

    if (file === undefined) {
      const { commit } = await api.call(endpoints.repos.createRepoCommit, {
        params: { id: repo.id },
        body: { branch, message },
      });
      ctx.print(`[${commit.branch} ${shortSha(commit.sha)}] ${commit.message ?? message}`);
      return;
    }

    const filename = path.basename(file);
    const contentType =
      AUDIO_TYPES[path.extname(filename).toLowerCase()] ?? 'application/octet-stream';
    /** @type {string | undefined} */
    let commitSha;
    try {
      const { bounce } = await publishBounce(ctx, api, {
        repoId: repo.id,
        branch,
        message,
        file,
        size,
        contentType,
        title,
        onCommit: (commit) => {
          commitSha = commit.sha;
          ctx.print(`[${commit.branch} ${shortSha(commit.sha)}] ${commit.message}`);
        },
      });
      ctx.print(`Published bounce "${bounce.title}" ${bounce.id} (${bounce.status})`);
    } catch (error) {
      if (!(error instanceof CliError) || commitSha === undefined) throw error;
      throw new CliError(
        `${error.message}. Commit ${shortSha(commitSha)} was made without the bounce.`,
        { status: error.status },
      );
    }
  },
};

/**
 * The size of the file to publish, after making sure it is a readable regular file.
 * @param {string} file
 */
function checkFile(file) {
  let stats;
  try {
    stats = fs.statSync(file);
  } catch {
    throw new CliError(`File not found: ${file}`);
  }
  if (!stats.isFile()) throw new CliError(`Not a regular file: ${file}`);
  try {
    fs.accessSync(file, fs.constants.R_OK);
  } catch {
    throw new CliError(`Cannot read ${file}: permission denied`);
  }
  if (stats.size === 0) throw new CliError(`The file is empty: ${file}`);
  return stats.size;
}
