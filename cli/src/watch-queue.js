// @ts-check
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { SESSION_EXPIRED } from './api.js';
import { ACCEPTED_KINDS, AUDIO_MIME, sniffAudioFile } from './audio-sniff.js';
import { CliError } from './errors.js';
import { shortSha } from './format.js';
import { publishBounce } from './publish.js';

/** @import { Api } from './api.js' */
/** @import { Context } from './context.js' */
/** @import { PublishedCommit } from './publish.js' */
/** @import { SettledFile } from './watch-folder.js' */
/** @import { WatchState } from './watch-state.js' */

/**
 * A settled file waiting to be published, and what its first try decided (kept for its retries).
 * @typedef {SettledFile & { message?: string; commit?: PublishedCommit }} Job
 */

/** @typedef {'done' | 'outage'} Outcome */

/** Waits between tries while the server does not answer: 1 s, doubling, at most 30 s. */
export const FIRST_RETRY_MS = 1000;
export const LAST_RETRY_MS = 30_000;

/** Refusals of the file itself: sending the same bytes again would be refused again. */
const FILE_REFUSALS = new Set([413, 415]);

/**
 * Publishes settled files one at a time, in the order they settled, each as a commit with its
 * bounce. A file already published (the same content, by SHA-256) is skipped; a file that is not
 * audio, or that the server refuses, gets one line on stderr. While the server cannot be reached
 * (or answers 502–504), files wait in the queue and the server is asked again with a growing
 * delay; once it answers they are published in order.
 */
export class PublishQueue {
  /**
   * @param {{
   *   ctx: Context;
   *   api: Api;
   *   repoId: string;
   *   branch: string;
   *   message?: string | undefined;
   *   state: WatchState;
   * }} options `message`: every commit's (default: from the file's name and time)
   */
  constructor(options) {
    this.options = options;
    /** @type {Job[]} */
    this.queue = [];
    /** @type {Job | undefined} the file being published */
    this.current = undefined;
    this.started = false;
    this.stopping = false;
    this.pumping = false;
    /** Tries in a row that found the server unreachable (reset by any answer). */
    this.outages = 0;
    /** @type {(() => void) | undefined} ends a wait between tries at once */
    this.wake = undefined;
    /** Cuts a health check short when the watch stops. */
    this.stopped = new AbortController();
    /** @type {(value: void) => void} */
    let resolve = () => {};
    /** @type {(error: unknown) => void} */
    let reject = () => {};
    /** Resolves once stopped (the current upload done), rejects when the watch cannot go on. */
    this.finished = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.resolveFinished = resolve;
    this.rejectFinished = reject;
  }

  /** Starts publishing (files added before wait until then). */
  start() {
    this.started = true;
    void this.pump();
  }

  /** @param {SettledFile} file */
  add(file) {
    if (this.stopping) return;
    const waiting = this.queue.findIndex((job) => job.file === file.file);
    // Changed again before its turn: it is published once, as it is now.
    if (waiting >= 0) this.queue[waiting] = { ...file };
    else this.queue.push({ ...file });
    void this.pump();
  }

  /**
   * Stops taking files; the one being published (returned, if any) is finished first.
   * @returns {Job | undefined}
   */
  stop() {
    if (this.stopping) return undefined;
    this.stopping = true;
    this.queue = [];
    this.wake?.();
    this.stopped.abort();
    if (!this.pumping) this.resolveFinished();
    return this.current;
  }

  async pump() {
    if (this.pumping || !this.started || this.stopping) return;
    this.pumping = true;
    try {
      for (;;) {
        if (this.stopping) break;
        const job = this.queue.shift();
        if (!job) break;
        this.current = job;
        /** @type {{ outcome: Outcome; error?: CliError }} */
        let result;
        try {
          result = await this.publish(job);
        } finally {
          this.current = undefined;
        }
        if (result.outcome === 'done') {
          this.outages = 0;
          continue;
        }
        if (this.stopping) break;
        // Tried again first when the server is back, unless it changed meanwhile (then its
        // newer self, already queued, is published instead).
        if (!this.queue.some((waiting) => waiting.file === job.file)) this.queue.unshift(job);
        await this.waitForServer(result.error);
      }
    } catch (error) {
      this.stopping = true;
      this.pumping = false;
      this.rejectFinished(error);
      return;
    }
    this.pumping = false;
    if (this.stopping) this.resolveFinished();
  }

  /**
   * Waits until the server answers again (or the watch stops), asking with a growing delay.
   * @param {CliError | undefined} error why it could not be reached
   */
  async waitForServer(error) {
    const { ctx } = this.options;
    const queued = this.queue.length;
    // The upload's own advice (run the command again) is what the watch does by itself.
    const reason = (error?.message ?? `Could not reach the Takes server at ${ctx.server}`).replace(
      /\. Run the same command again to resume the upload\.$/,
      '',
    );
    ctx.note(
      `Offline: ${reason}. ` +
        `${queued} ${queued === 1 ? 'file waits' : 'files wait'}; trying again until the server answers.`,
    );
    while (!this.stopping) {
      const delay = Math.min(FIRST_RETRY_MS * 2 ** this.outages, LAST_RETRY_MS);
      this.outages++;
      await this.sleep(delay);
      if (this.stopping) return;
      if (await serverAnswers(ctx.server, this.stopped.signal)) {
        const count = this.queue.length;
        ctx.note(`Back online: publishing ${count} queued ${count === 1 ? 'file' : 'files'}.`);
        return;
      }
    }
  }

  /** @param {number} ms */
  sleep(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve(undefined);
      }
      this.wake = done;
    }).finally(() => {
      this.wake = undefined;
    });
  }

  /**
   * Publishes one file unless it is gone, changed, not audio or published already. Only a
   * session that cannot be renewed throws: nothing else can be published either.
   * @param {Job} job
   * @returns {Promise<{ outcome: Outcome; error?: CliError }>}
   */
  async publish(job) {
    const { ctx, api, state } = this.options;
    const name = path.basename(job.file);
    let hash;
    /** @type {string} */
    let contentType;
    try {
      const stats = await fsp.stat(job.file);
      // Changed since it settled: the folder watcher reports it again once it settles anew.
      if (!stats.isFile() || stats.size !== job.size || stats.mtimeMs !== job.mtimeMs)
        return { outcome: 'done' };
      // An empty file is one that has only just been created.
      if (stats.size === 0) return { outcome: 'done' };
      const format = await sniffAudioFile(job.file);
      if (!format) {
        ctx.note(`Skipped ${name}: not an audio file (${ACCEPTED_KINDS}).`);
        return { outcome: 'done' };
      }
      contentType = AUDIO_MIME[format];
      hash = state.hashOf(name, job.size, job.mtimeMs) ?? (await sha256File(job.file));
    } catch (error) {
      const code = /** @type {NodeJS.ErrnoException} */ (error).code;
      // Deleted before its turn: nothing to publish.
      if (code === 'ENOENT') return { outcome: 'done' };
      ctx.note(`Skipped ${name}: ${error instanceof Error ? error.message : String(error)}`);
      return { outcome: 'done' };
    }

    const read = { name, size: job.size, mtimeMs: job.mtimeMs };
    const known = state.get(hash);
    if (known) {
      this.save(() => state.setHash(read, hash));
      // Files found at the start that were published before are skipped quietly.
      if (!job.initial) {
        const what = known.refused
          ? `refused before (${known.refused})`
          : `already published${known.commit ? ` as ${shortSha(known.commit)}` : ''}`;
        ctx.note(`Skipped ${name}: the same audio as "${known.file}", ${what}.`);
      }
      return { outcome: 'done' };
    }

    job.message ??= this.options.message ?? defaultMessage(name, job.mtimeMs);
    try {
      // A session that cannot be renewed is said so here, not taken for a network failure mid-upload.
      await api.accessToken();
      const { commit, bounce } = await publishBounce(ctx, api, {
        repoId: this.options.repoId,
        branch: this.options.branch,
        message: job.message,
        file: job.file,
        size: job.size,
        contentType,
        title: path.parse(name).name,
        commit: job.commit,
        onCommit: (made) => {
          job.commit = made;
        },
      });
      ctx.print(`Published "${name}" as ${shortSha(commit.sha)} on ${commit.branch}`);
      const done = {
        file: name,
        at: new Date().toISOString(),
        commit: commit.sha,
        ...(bounce?.id ? { bounce: bounce.id } : {}),
      };
      this.save(() => state.set(hash, done, read));
      return { outcome: 'done' };
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      if (error.message === SESSION_EXPIRED) throw error;
      if (isOutage(error)) return { outcome: 'outage', error };
      const commit = job.commit;
      const without = commit ? ` Commit ${shortSha(commit.sha)} was made without the bounce.` : '';
      const status = error.status;
      if (status !== undefined && FILE_REFUSALS.has(status)) {
        const refused = {
          file: name,
          at: new Date().toISOString(),
          refused: error.message,
          ...(commit ? { commit: commit.sha } : {}),
        };
        this.save(() => state.set(hash, refused, read));
      }
      ctx.note(`Could not publish ${name}: ${error.message}.${without}`);
      return { outcome: 'done' };
    }
  }

  /**
   * Saves the state file; one that cannot be written is said, not fatal.
   * @param {() => void} write
   */
  save(write) {
    try {
      write();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.options.ctx.note(`Could not save ${this.options.state.file}: ${reason}`);
    }
  }
}

/**
 * The server did not answer (refused or dropped connections, no answer in time), or a proxy
 * before it says it is unavailable: worth trying again later, unlike a refusal.
 * @param {CliError} error
 */
export function isOutage(error) {
  if (error.status !== undefined) return error.status >= 502 && error.status <= 504;
  return error.message.startsWith('Could not reach the Takes server');
}

/**
 * Whether the server answers its health check as usable.
 * @param {string} server
 * @param {AbortSignal} stopped
 */
async function serverAnswers(server, stopped) {
  try {
    const response = await fetch(`${server}/api/health`, {
      redirect: 'follow',
      signal: AbortSignal.any([stopped, AbortSignal.timeout(10_000)]),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * `Bounce "Night Drive v3.wav" (2026-11-26 14:03)`, at the file's modification time, local time.
 * @param {string} name
 * @param {number} mtimeMs
 */
export function defaultMessage(name, mtimeMs) {
  const t = new Date(mtimeMs);
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  const when = `${t.getFullYear()}-${two(t.getMonth() + 1)}-${two(t.getDate())} ${two(t.getHours())}:${two(t.getMinutes())}`;
  return `Bounce "${name}" (${when})`;
}

/**
 * The SHA-256 of a file's content, read in chunks.
 * @param {string} file
 */
async function sha256File(file) {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(/** @type {Buffer} */ (chunk));
  return hash.digest('hex');
}
