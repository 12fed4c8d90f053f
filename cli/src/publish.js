// @ts-check
import fs from 'node:fs';
import path from 'node:path';
import { endpoints } from '@takes/contract/runtime';
import { configDir } from './credentials.js';
import { formatBytes } from './format.js';
import { createProgress } from './progress.js';
import { ResumableFile } from './resumable.js';

/** @import { Api } from './api.js' */
/** @import { Context } from './context.js' */

/**
 * The commit a bounce goes on.
 * @typedef {{ sha: string; branch: string; message: string }} PublishedCommit
 */

/**
 * What the server answers for a published bounce.
 * @typedef {{ id: string; title: string; status: string }} PublishedBounce
 */

/** Upload-Metadata keys as CLIs before the snake_case rename saved their tries. */
const FORMER_METADATA_NAMES = {
  repoId: 'repo_id',
  commitSha: 'commit_sha',
  commitBranch: 'commit_branch',
};

/**
 * Makes a commit on a branch and uploads a file as its bounce, with progress on stderr and a
 * resumable (tus) upload: the same publish tried again (same file, repository, branch and
 * message) after a failed upload resumes it onto the commit it made, instead of making another.
 *
 * Used by `takes commit --bounce` and `takes watch`.
 * @param {Context} ctx
 * @param {Api} api
 * @param {{
 *   repoId: string;
 *   branch: string;
 *   message: string;
 *   file: string;
 *   size: number;
 *   contentType: string;
 *   title?: string | undefined;
 *   commit?: PublishedCommit | undefined;
 *   onCommit?: (commit: PublishedCommit, resumed: boolean) => void;
 * }} options `commit`: one made by an earlier try whose upload never started (no new commit is
 *   made); `onCommit`: called once the commit is known (made, or resumed from an earlier try),
 *   before the upload starts
 * @returns {Promise<{ commit: PublishedCommit; bounce: PublishedBounce }>} a failed upload throws
 *   after `onCommit` was called: the commit is there without its bounce
 */
export async function publishBounce(ctx, api, options) {
  const { repoId, branch, message, file, size, contentType, title } = options;
  const filename = path.basename(file);
  const progress = createProgress(ctx.stderr, `Uploading ${filename}`, size);
  const upload = new ResumableFile({
    api,
    server: ctx.server,
    configDir: configDir(ctx.env),
    file,
    size,
    metadata: {},
    onProgress: (sent) => progress.update(sent),
    onResume: (offset) =>
      ctx.note(
        `Resuming the upload of ${filename} at ${formatBytes(offset)} of ${formatBytes(size)}`,
      ),
  });
  try {
    // The same publish run again after a failed upload: its commit was made, and the bytes the
    // server already has are not sent again.
    const wanted = { kind: 'bounce', repo_id: repoId, branch, message };
    const [earlier] = await upload.previous(wanted, FORMER_METADATA_NAMES);
    const earlierSha = earlier?.metadata.commit_sha;
    /** @type {PublishedCommit} */
    let commit;
    if (earlier && earlierSha) {
      upload.resumeFrom(earlier);
      // Should the server have lost it, the upload is made again with the same metadata.
      upload.setMetadata(earlier.metadata);
      commit = { sha: earlierSha, branch: earlier.metadata.commit_branch ?? branch, message };
      options.onCommit?.(commit, true);
    } else {
      if (options.commit) {
        commit = options.commit;
      } else {
        const made = await api.call(endpoints.repos.createRepoCommit, {
          params: { id: repoId },
          body: { branch, message },
        });
        commit = {
          sha: made.commit.sha,
          branch: made.commit.branch,
          message: made.commit.message ?? message,
        };
      }
      options.onCommit?.(commit, false);
      upload.setMetadata({
        ...wanted,
        commit_sha: commit.sha,
        commit_branch: commit.branch,
        filename,
        filetype: contentType,
        ...(title ? { title } : {}),
      });
    }
    progress.update(0);
    try {
      const bounce = /** @type {PublishedBounce} */ (await upload.send());
      return { commit, bounce };
    } finally {
      progress.finish();
    }
  } finally {
    // tus reads the file through streams of its own; the one it was given is opened but never
    // read, and would hold a file descriptor in a long-running `takes watch`.
    const source = /** @type {unknown} */ (upload.upload.file);
    if (source instanceof fs.ReadStream) source.destroy();
  }
}
