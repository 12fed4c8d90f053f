// @ts-check
import fs from 'node:fs';
import path from 'node:path';
import { endpoints } from '@takes/contract/runtime';
import { downloadBounce, etagOfFile, PullState } from '../download.js';
import { CliError, UsageError } from '../errors.js';
import { formatBytes, shortSha } from '../format.js';
import { resolveRepo } from '../repos.js';
import { safeName } from '../safe-name.js';
import { requiredOption, stringOption } from './command.js';

/** @import { Bounce, Repository } from '@takes/contract' */
/** @import { Api } from '../api.js' */
/** @import { Context } from '../context.js' */
/** @import { Quality } from '../download.js' */
/** @import { Command } from './command.js' */

/** @type {Quality[]} */
const QUALITIES = ['original', 'high', 'standard'];

/** An original's extension, from its type (what the server sniffed at upload). */
const EXTENSIONS = /** @type {Record<string, string>} */ ({
  'audio/wav': 'wav',
  'audio/aiff': 'aiff',
  'audio/flac': 'flac',
  'audio/mpeg': 'mp3',
  'audio/aac': 'aac',
  'audio/mp4': 'm4a',
  'audio/ogg': 'ogg',
});

/** What `pull --markers` says: there is nothing to write beside a bounce. */
export const NO_BOUNCE_MARKERS =
  'No marker files: bounces have no comments in Takes (comments are on project versions; `takes markers VERSION` exports them).';

/** @type {Command} */
export const pullCommand = {
  name: 'pull',
  summary: "Download a branch's bounces into a folder",
  usage: `Usage: takes pull --repo REPO [--branch BRANCH] [--dir DIR] [--quality QUALITY] [--latest]
                  [--markers]

Downloads the bounces of BRANCH into DIR/REPO/BRANCH, each named "{commit} {title}.{ext}".
Files already there and unchanged are skipped: run it again to fetch only what is new.

Options:
  --repo REPO        repository name or id
  --branch BRANCH    branch (default: the repository's default branch)
  --dir DIR          the folder to put REPO/BRANCH in (default: the current folder)
  --quality QUALITY  original (default: the files as uploaded), or high or standard
                     (the MP3 renditions, once processed)
  --latest           only the newest bounce
  --markers          marker files of the comments: bounces have none (comments are on project
                     versions: \`takes markers VERSION\` exports a version's)`,
  options: {
    repo: { type: 'string' },
    branch: { type: 'string' },
    dir: { type: 'string' },
    quality: { type: 'string' },
    latest: { type: 'boolean' },
    markers: { type: 'boolean' },
  },
  async run(ctx, { values }) {
    const repoRef = requiredOption(
      pullCommand,
      values,
      'repo',
      'A repository is required (--repo)',
    );
    const qualityText = stringOption(values, 'quality') ?? 'original';
    const quality = QUALITIES.find((q) => q === qualityText);
    if (!quality)
      throw new UsageError('--quality must be original, high or standard', pullCommand.usage);
    const dir = stringOption(values, 'dir');
    if (dir !== undefined && dir.trim() === '')
      throw new UsageError('--dir needs a folder', pullCommand.usage);
    if (values.markers === true) ctx.note(NO_BOUNCE_MARKERS);
    await pullBranch(ctx, {
      repoRef,
      branch: stringOption(values, 'branch'),
      dir: dir ?? process.cwd(),
      quality,
      latest: values.latest === true,
    });
  },
};

/**
 * Downloads a branch's bounces into DIR/REPO/BRANCH (what `takes pull` and `takes open
 * takes://pull?…` do): a line per bounce on stdout, then how many were downloaded.
 * @param {Context} ctx
 * @param {{
 *   repoRef: string;
 *   branch?: string | undefined;
 *   dir: string;
 *   quality: Quality;
 *   latest: boolean;
 * }} options
 */
export async function pullBranch(ctx, options) {
  const api = ctx.api();
  const repo = await findRepo(api, options.repoRef);
  const branch = options.branch?.trim() || repo.default_branch;
  if (!branch) throw new CliError(`${repo.name} has no branches yet: there is nothing to pull.`);
  const { bounces } = await api.call(endpoints.repos.listRepoBounces, {
    params: { id: repo.id },
    query: { branch },
  });

  const folder = path.resolve(
    options.dir,
    safeName(repo.name, 'Repository'),
    safeName(branch, 'Branch'),
  );
  // Newest first, as the server lists them.
  const wanted = options.latest ? bounces.slice(0, 1) : bounces;
  ctx.note(`Pulling ${repo.name} (${branch}) into ${folder}`);
  if (wanted.length === 0) {
    ctx.print(`No bounces on ${branch} yet.`);
    ctx.print('0 downloaded, 0 already up to date');
    return;
  }
  try {
    fs.mkdirSync(folder, { recursive: true });
  } catch (error) {
    throw new CliError(`Could not create ${folder}: ${errorText(error)}`);
  }

  const names = fileNames(bounces, options.quality);
  const state = new PullState(folder);
  let downloaded = 0;
  let upToDate = 0;
  let skipped = 0;
  for (const bounce of wanted) {
    const name = names.get(bounce.id) ?? bounce.id;
    if (options.quality !== 'original' && bounce.status !== 'completed') {
      const why = bounce.status === 'failed' ? 'its processing failed' : 'still processing';
      ctx.print(`Skipped ${name}: no ${options.quality} rendition (${why})`);
      skipped++;
      continue;
    }
    const file = path.join(folder, name);
    const etag = await knownEtag(state, name, file);
    const result = await downloadBounce(api, {
      repoId: repo.id,
      bounceId: bounce.id,
      quality: options.quality,
      file,
      etag,
      stderr: ctx.stderr,
    });
    const entry = { bounce: bounce.id, quality: options.quality };
    if (result.status === 'unchanged') {
      if (state.get(name)?.etag !== etag) {
        state.set(name, { ...entry, etag: etag ?? null, size: fs.statSync(file).size });
        state.save();
      }
      ctx.print(`Up to date ${name}`);
      upToDate++;
    } else if (result.status === 'downloaded') {
      state.set(name, { ...entry, etag: result.etag ?? null, size: result.size });
      state.save();
      ctx.print(`Downloaded ${name} (${formatBytes(result.size)})`);
      downloaded++;
    } else {
      ctx.print(`Skipped ${name}: ${result.reason}`);
      skipped++;
    }
  }
  ctx.print(
    `${downloaded} downloaded, ${upToDate} already up to date${skipped ? `, ${skipped} skipped` : ''}`,
  );
}

/**
 * A repository by name or id. A deep link names it by id: one the person cannot see is the
 * server's 404, said plainly.
 * @param {Api} api
 * @param {string} ref
 * @returns {Promise<Repository>}
 */
export async function findRepo(api, ref) {
  const id = ref.trim();
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id))
    return resolveRepo(api, ref);
  try {
    const { repo } = await api.call(endpoints.repos.getRepo, { params: { id } });
    return repo;
  } catch (error) {
    if (error instanceof CliError && error.status === 404)
      throw new CliError(
        `Repository ${id} was not found, or you are not a member of it (HTTP 404).`,
        { status: 404 },
      );
    throw error;
  }
}

/**
 * Each bounce's file name, "{commit} {title}.{ext}", made safe; two alike on one folder (the same
 * title twice on a commit) get " (2)", the older one keeping the plain name. Compared without
 * case, as macOS and Windows do.
 * @param {Bounce[]} bounces newest first
 * @param {Quality} quality
 * @returns {Map<string, string>} bounce id → file name
 */
export function fileNames(bounces, quality) {
  /** @type {Map<string, string>} */
  const names = new Map();
  const taken = new Set();
  for (const bounce of [...bounces].reverse()) {
    const base = `${shortSha(bounce.commit_sha)} ${safeName(bounce.title, 'Untitled')}`;
    const ext = quality === 'original' ? originalExtension(bounce) : 'mp3';
    let name = `${base}.${ext}`;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base} (${n}).${ext}`;
    taken.add(name.toLowerCase());
    names.set(bounce.id, name);
  }
  return names;
}

/**
 * The extension of an original: its format's; for AIFF the one its file had (.aif, .aifc).
 * @param {Pick<Bounce, 'mime' | 'filename'>} bounce
 */
function originalExtension(bounce) {
  const own = /\.([a-z0-9]{1,5})$/i.exec(bounce.filename)?.[1]?.toLowerCase();
  const ext = EXTENSIONS[bounce.mime.split(';')[0]?.trim().toLowerCase() ?? ''];
  if (ext === 'aiff' && (own === 'aif' || own === 'aifc')) return own;
  return ext ?? own ?? 'audio';
}

/**
 * The ETag of the file already at `file`, for the server to answer 304 when it is the same: the
 * one saved when it was downloaded while its size is unchanged, else its content's hash.
 * @param {PullState} state
 * @param {string} name
 * @param {string} file
 */
async function knownEtag(state, name, file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return undefined;
  }
  if (!stat.isFile()) throw new CliError(`${file} is in the way: it is not a file.`);
  const saved = state.get(name);
  if (saved?.etag && saved.size === stat.size) return saved.etag;
  return etagOfFile(file);
}

/** @param {unknown} error */
function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}
