import type { Bounce, PublishResponse } from '@takes/contract';
import { ApiError, apiPost } from '../../lib/api';

/** A failed step of publishing; `message` is what the page shows under 'Publish failed'. */
export class PublishError extends Error {
  override readonly name = 'PublishError';
}

export interface PublishInput {
  repoId: string;
  branch: string;
  file: File;
  onProgress?: (percent: number) => void;
}

function serverMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    return typeof body.error === 'string' ? body.error : undefined;
  } catch {
    return undefined;
  }
}

/** PUTs the raw file to the upload URL with its token; XMLHttpRequest for upload progress. */
export function putUpload(
  url: string,
  token: string,
  file: File,
  onProgress?: (percent: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('x-upsert-token', token);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress?.(Math.round((event.loaded / event.total) * 100));
      }
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(100);
        resolve();
        return;
      }
      const detail = serverMessage(xhr.responseText);
      reject(new PublishError(detail ? `Upload failed: ${detail}` : 'Upload failed'));
    };
    xhr.onerror = () => reject(new PublishError('Upload failed'));
    xhr.onabort = () => reject(new PublishError('Upload failed'));
    xhr.send(file);
  });
}

/** The server's message for a failed step, else the fixed default message for that step. */
function stepError(error: unknown, fallback: string): PublishError {
  if (error instanceof PublishError) return error;
  if (error instanceof ApiError && error.serverMessage)
    return new PublishError(error.serverMessage);
  return new PublishError(fallback);
}

/**
 * Publishes an audio file as a bounce in three steps: ask for an upload URL, PUT the file to
 * it with the upload token, then complete the publish. The bounce then processes on the server.
 */
export async function publishBounce({
  repoId,
  branch,
  file,
  onProgress,
}: PublishInput): Promise<Bounce> {
  const contentType = file.type || 'application/octet-stream';
  let publish: PublishResponse;
  try {
    publish = await apiPost<PublishResponse>('/api/bounces/publish', {
      repoId,
      branch,
      filename: file.name,
      contentType,
      size: file.size,
    });
  } catch (error) {
    throw stepError(error, 'publish_failed');
  }

  await putUpload(publish.uploadUrl, publish.uploadToken, file, onProgress);

  try {
    const { bounce } = await apiPost<{ bounce: Bounce }>('/api/bounces/complete', {
      repoId,
      branch,
      filename: file.name,
      mime: contentType,
      size: file.size,
      uploadId: publish.uploadId,
    });
    return bounce;
  } catch (error) {
    throw stepError(error, 'complete_failed');
  }
}
