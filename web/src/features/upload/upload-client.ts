import type { routes, RouteResult } from '@takes/contract';
import * as tus from 'tus-js-client';

/** The server's answer to an upload (the new version, its project and branch). */
export type UploadResult = RouteResult<typeof routes.versions.uploadVersion>;

export type UploadFields =
  | { kind: 'version'; projectId: string; branchId: string; commitMessage: string; tags: string[] }
  | {
      kind: 'track';
      projectName: string;
      projectDescription: string;
      isPrivate: boolean;
      commitMessage?: string;
      tags: string[];
    };

const BLOCK_BYTES = 100 * 1024 * 1024;

/** An upload's time-out: the larger of 300000 ms and 120000 ms per started 100 MB block. */
export function uploadTimeoutMs(size: number): number {
  return Math.max(300_000, 120_000 * Math.ceil(size / BLOCK_BYTES));
}

export function uploadForm(file: File, fields: UploadFields): FormData {
  const form = new FormData();
  form.append('audio_file', file);
  if (fields.kind === 'version') {
    form.append('project_id', fields.projectId);
    form.append('branch_id', fields.branchId);
    form.append('commit_message', fields.commitMessage);
  } else {
    form.append('project_name', fields.projectName);
    form.append('project_description', fields.projectDescription);
    form.append('is_private', fields.isPrivate ? 'true' : 'false');
    if (fields.commitMessage) form.append('commit_message', fields.commitMessage);
  }
  if (fields.tags.length > 0) form.append('tags', JSON.stringify(fields.tags));
  return form;
}

/** What the progress bar shows: real bytes sent, the speed lately, and the time left at it. */
export interface UploadProgress {
  percent: number;
  sent: number;
  total: number;
  /** Bytes per second over the last few seconds (0 until measured). */
  bytesPerSecond: number;
  /** At that speed; null until there is a speed to go by. */
  secondsLeft: number | null;
}

/** The tus endpoint: resumable uploads that end in the same intake as the multipart route. */
const TUS_ENDPOINT = '/api/uploads';

/**
 * The most bytes one PATCH carries: a drop loses at most this much, each request finishes (and the
 * server counts its bytes) often, and proxies with a body-size limit let every request through.
 */
export const CHUNK_BYTES = 8 * 1024 * 1024;

/** Retries after a dropped connection: quick at first, then every 5 s for about 10 minutes. */
const RETRY_DELAYS = [0, 1000, 2000, 3000, ...Array.from({ length: 120 }, () => 5000)];

/** The Upload-Metadata of an upload: the same fields as the multipart form, plus the file's name. */
export function uploadMetadata(file: File, fields: UploadFields): Record<string, string> {
  const metadata: Record<string, string> = { kind: 'version', filename: file.name };
  if (file.type) metadata.filetype = file.type;
  if (fields.kind === 'version') {
    metadata.project_id = fields.projectId;
    metadata.branch_id = fields.branchId;
    metadata.commit_message = fields.commitMessage;
  } else {
    metadata.project_name = fields.projectName;
    metadata.project_description = fields.projectDescription;
    metadata.is_private = fields.isPrivate ? 'true' : 'false';
    if (fields.commitMessage) metadata.commit_message = fields.commitMessage;
  }
  if (fields.tags.length > 0) metadata.tags = JSON.stringify(fields.tags);
  return metadata;
}

/** Speed over a sliding window of progress samples (the last 5 s). */
export function progressMeter(now: () => number = () => Date.now()) {
  const samples: { at: number; sent: number }[] = [];
  return (sent: number, total: number): UploadProgress => {
    const at = now();
    samples.push({ at, sent });
    while (samples.length > 2 && at - (samples[0]?.at ?? at) > 5000) samples.shift();
    const first = samples[0] ?? { at, sent };
    const seconds = (at - first.at) / 1000;
    const bytesPerSecond = seconds > 0.5 ? Math.max(0, (sent - first.sent) / seconds) : 0;
    return {
      percent: total > 0 ? Math.floor((sent / total) * 100) : 0,
      sent,
      total,
      bytesPerSecond,
      secondsLeft: bytesPerSecond > 0 ? Math.ceil((total - sent) / bytesPerSecond) : null,
    };
  };
}

function sameTarget(previous: Record<string, string>, wanted: Record<string, string>): boolean {
  const keys = new Set([...Object.keys(previous), ...Object.keys(wanted)]);
  return [...keys].every((key) => previous[key] === wanted[key]);
}

function failureOf(error: Error | tus.DetailedError): Error {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  const status = response?.getStatus() ?? 0;
  if (status === 401) return new Error('Authentication required. Please log in again.');
  if (status >= 400) {
    let serverError: string | undefined;
    try {
      const body: unknown = JSON.parse(response?.getBody() ?? '');
      if (typeof body === 'object' && body !== null && 'error' in body)
        serverError = String(body.error);
    } catch {
      serverError = undefined;
    }
    return new Error(
      serverError ? `Upload failed: ${serverError}` : `Upload failed with status ${status}`,
    );
  }
  return new Error('Network error during upload');
}

/**
 * Sends the upload with the tus protocol (tus-js-client): after a dropped connection it retries
 * from the bytes the server already has, and the upload's URL is kept in this browser (its
 * fingerprint) so the same file chosen again after a reload, in this tab or another, resumes.
 */
export function uploadAudio(
  file: File,
  fields: UploadFields,
  onProgress: (progress: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<UploadResult> {
  const metadata = uploadMetadata(file, fields);
  const meter = progressMeter();
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(file, {
      // Absolute: the server's Location is relative, and tus-js-client resolves it against this.
      endpoint: new URL(TUS_ENDPOINT, window.location.href).href,
      metadata,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      headers: { accept: 'application/json' },
      // A refusal (4xx other than a lost race) is final; a lost connection, even offline, is not.
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        return status === 0 || status >= 500 || status === 409 || status === 423;
      },
      onProgress: (sent, total) => onProgress(meter(sent, total)),
      onSuccess: ({ lastResponse }) => {
        let body: unknown;
        try {
          body = JSON.parse(lastResponse.getBody());
        } catch {
          body = undefined;
        }
        if (
          typeof body !== 'object' ||
          body === null ||
          typeof (body as { version_id?: unknown }).version_id !== 'string'
        ) {
          reject(new Error('Invalid response format'));
          return;
        }
        onProgress(meter(file.size, file.size));
        resolve(body as UploadResult);
      },
      onError: (error) => reject(failureOf(error)),
    });
    signal?.addEventListener(
      'abort',
      () => {
        void upload.abort();
        reject(new DOMException('Upload cancelled', 'AbortError'));
      },
      { once: true },
    );
    void upload.findPreviousUploads().then(
      (previous) => {
        const match = previous.find((entry) => sameTarget(entry.metadata, metadata));
        if (match) upload.resumeFromPreviousUpload(match);
        upload.start();
      },
      () => upload.start(),
    );
  });
}
