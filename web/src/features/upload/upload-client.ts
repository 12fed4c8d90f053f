import { routes, type RouteResult } from '@takes/contract';
import { api } from '../../lib/api';

const uploadVersion = routes.versions.uploadVersion;

/** The server's answer to an upload (the new version, its project and branch). */
export type UploadResult = RouteResult<typeof uploadVersion>;

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
  form.append('audioFile', file);
  if (fields.kind === 'version') {
    form.append('projectId', fields.projectId);
    form.append('branchId', fields.branchId);
    form.append('commitMessage', fields.commitMessage);
  } else {
    form.append('projectName', fields.projectName);
    form.append('projectDescription', fields.projectDescription);
    form.append('isPrivate', fields.isPrivate ? 'true' : 'false');
    if (fields.commitMessage) form.append('commitMessage', fields.commitMessage);
  }
  if (fields.tags.length > 0) form.append('tags', JSON.stringify(fields.tags));
  return form;
}

/**
 * Sends the upload with XMLHttpRequest, which (unlike fetch) reports the bytes sent, so the
 * progress bar shows the real transfer. `onProgress` gets 0–100.
 */
export function uploadAudio(
  file: File,
  fields: UploadFields,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(uploadVersion.method, api.url(uploadVersion, {}));
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    xhr.timeout = uploadTimeoutMs(file.size);

    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress(Math.round((event.loaded / event.total) * 100));
      }
    };
    xhr.onerror = () => reject(new Error('Network error during upload'));
    xhr.ontimeout = () =>
      reject(
        new Error(
          'Upload timed out. Large files may take several minutes to upload. Please try again or use a smaller file.',
        ),
      );
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status === 401) {
        reject(new Error('Authentication required. Please log in again.'));
        return;
      }
      if (xhr.status < 200 || xhr.status >= 300) {
        const serverError =
          typeof body === 'object' && body !== null && 'error' in body
            ? String(body.error)
            : undefined;
        reject(
          new Error(
            serverError
              ? `Upload failed: ${serverError}`
              : `Upload failed with status ${xhr.status}`,
          ),
        );
        return;
      }
      if (
        typeof body !== 'object' ||
        body === null ||
        typeof (body as { versionId?: unknown }).versionId !== 'string'
      ) {
        reject(new Error('Invalid response format'));
        return;
      }
      onProgress(100);
      resolve(body as UploadResult);
    };

    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(uploadForm(file, fields));
  });
}
