// @ts-check
import fs from 'node:fs';
import path from 'node:path';
import * as tusClient from 'tus-js-client';
import { CliError } from './errors.js';
import { refusal, unreachable } from './http.js';

/** @import { Api } from './api.js' */
/** @typedef {import('tus-js-client').PreviousUpload} PreviousUpload */

const { Upload } = tusClient;
// Exported by the Node build, missing from its type declarations.
const { FileUrlStorage } =
  /** @type {{ FileUrlStorage: new (file: string) => import('tus-js-client').UrlStorage }} */ (
    /** @type {unknown} */ (tusClient)
  );

/** Retries within one run after a dropped connection; past them, running the command again resumes. */
const RETRY_DELAYS = [0, 1000, 3000];

/**
 * A resumable (tus) upload of a file on disk to /api/uploads. Its URL is kept in the config
 * folder (uploads.json) under the file's fingerprint (path, size, modification time, server), so
 * running the same command again after a failure resumes from the bytes the server has.
 */
export class ResumableFile {
  /**
   * @param {{
   *   api: Api;
   *   server: string;
   *   configDir: string;
   *   file: string;
   *   size: number;
   *   metadata: Record<string, string>;
   *   onProgress?: (sent: number) => void;
   *   onResume?: (offset: number) => void;
   * }} options
   */
  constructor(options) {
    this.options = options;
    fs.mkdirSync(options.configDir, { recursive: true, mode: 0o700 });
    /** @type {{ offset: number } | undefined} */
    this.resumed = undefined;
    this.upload = new Upload(fs.createReadStream(path.resolve(options.file)), {
      endpoint: new URL('/api/uploads', options.server).href,
      uploadSize: options.size,
      metadata: options.metadata,
      urlStorage: new FileUrlStorage(path.join(options.configDir, 'uploads.json')),
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      retryDelays: RETRY_DELAYS,
      onBeforeRequest: async (request) => {
        request.setHeader('authorization', `Bearer ${await options.api.accessToken()}`);
      },
      onAfterResponse: (request, response) => {
        // The HEAD of a resumed upload says how much the server already has.
        if (request.getMethod() !== 'HEAD' || this.resumed) return;
        const offset = Number(response.getHeader('upload-offset'));
        if (response.getStatus() === 200 && Number.isSafeInteger(offset)) {
          this.resumed = { offset };
          options.onResume?.(offset);
        }
      },
      onProgress: (sent) => options.onProgress?.(sent),
    });
  }

  /**
   * Earlier tries of this same file whose metadata has every given entry (same repository,
   * branch and message): the newest first. `formerNames` maps metadata keys an older CLI saved
   * its tries under to today's, so a try saved before the rename is still found and resumed.
   * @param {Record<string, string>} wanted
   * @param {Record<string, string>} [formerNames]
   * @returns {Promise<PreviousUpload[]>}
   */
  async previous(wanted, formerNames = {}) {
    const all = await this.upload.findPreviousUploads();
    return all
      .map((entry) => ({
        ...entry,
        metadata: Object.fromEntries(
          Object.entries(entry.metadata).map(([key, value]) => [formerNames[key] ?? key, value]),
        ),
      }))
      .filter((entry) =>
        Object.entries(wanted).every(([key, value]) => entry.metadata[key] === value),
      )
      .sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime));
  }

  /** @param {PreviousUpload} previous */
  resumeFrom(previous) {
    this.upload.resumeFromPreviousUpload(previous);
  }

  /** @param {Record<string, string>} metadata what the upload becomes (set before it starts) */
  setMetadata(metadata) {
    this.upload.options.metadata = metadata;
  }

  /**
   * Sends the file (or its rest) and returns the server's JSON answer to the last PATCH.
   * @returns {Promise<unknown>}
   */
  send() {
    const origin = new URL(this.options.server).origin;
    return new Promise((resolve, reject) => {
      this.upload.options.onSuccess = ({ lastResponse }) => {
        try {
          resolve(/** @type {unknown} */ (JSON.parse(lastResponse.getBody())));
        } catch {
          resolve(undefined);
        }
      };
      this.upload.options.onError = (error) => {
        const response = 'originalResponse' in error ? error.originalResponse : null;
        const status = response?.getStatus() ?? 0;
        if (status >= 400) {
          reject(refusal(status, '', response?.getBody() ?? ''));
          return;
        }
        if (error instanceof CliError) return reject(error);
        const cause = 'originalRequest' in error ? (error.causingError ?? error) : error;
        reject(
          new CliError(
            `${unreachable(origin, cause).message}. Run the same command again to resume the upload.`,
          ),
        );
      };
      this.upload.start();
    });
  }
}
