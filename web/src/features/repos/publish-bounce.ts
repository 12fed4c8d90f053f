import { publishBounceFile, PublishStepError, type Bounce } from '@takes/contract';
import { api, ApiError } from '../../lib/api';

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

/** What the page shows when a step failed without a message of its own. */
const STEP_FALLBACK = { publish: 'publish_failed', complete: 'complete_failed' } as const;

/** The server's message for a failed step, else the fixed default message for that step. */
function stepError(error: unknown): PublishError {
  if (!(error instanceof PublishStepError)) return new PublishError('publish_failed');
  const cause = error.cause;
  // The upload step rejects with its own PublishError ('Upload failed…').
  if (cause instanceof PublishError) return cause;
  if (error.step === 'upload') return new PublishError('Upload failed');
  if (cause instanceof ApiError && cause.serverMessage)
    return new PublishError(cause.serverMessage);
  return new PublishError(STEP_FALLBACK[error.step]);
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
  try {
    return await publishBounceFile(api, {
      target: {
        repo_id: repoId,
        branch,
        filename: file.name,
        content_type: contentType,
        size: file.size,
      },
      upload: (publish) => putUpload(publish.upload_url, publish.upload_token, file, onProgress),
    });
  } catch (error) {
    throw stepError(error);
  }
}
