import { GUEST_TUS_PATH } from '@takes/contract';
import * as tus from 'tus-js-client';
import { CHUNK_BYTES, progressMeter, type UploadProgress } from '../upload/upload-client';

/** Who is sending, as the guest wrote it on the page. */
export interface Guest {
  name: string;
  email: string;
}

/** Retries after a dropped connection: quick at first, then every 5 s for about 10 minutes. */
const RETRY_DELAYS = [0, 1000, 2000, 3000, ...Array.from({ length: 120 }, () => 5000)];

/** The message for a refused upload: the server's sentence, else the upload page's words. */
function failureOf(error: Error | tus.DetailedError): Error {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  const status = response?.getStatus() ?? 0;
  if (status >= 400) {
    try {
      const body: unknown = JSON.parse(response?.getBody() ?? '');
      if (typeof body === 'object' && body !== null && 'error' in body)
        return new Error(`Upload failed: ${String(body.error)}`);
    } catch {
      // Not our JSON: the status says it.
    }
    return new Error(`Upload failed with status ${status}`);
  }
  return new Error('Network error during upload');
}

/** The Upload-Metadata of a guest's file: the link's key, the file's name, who sends it. */
export function guestMetadata(key: string, file: File, guest: Guest): Record<string, string> {
  const metadata: Record<string, string> = {
    upload_link: key,
    filename: file.name,
    guest_name: guest.name.trim(),
  };
  if (guest.email.trim()) metadata.guest_email = guest.email.trim();
  if (file.type) metadata.filetype = file.type;
  return metadata;
}

function sameTarget(previous: Record<string, string>, wanted: Record<string, string>): boolean {
  const keys = new Set([...Object.keys(previous), ...Object.keys(wanted)]);
  return [...keys].every((key) => previous[key] === wanted[key]);
}

/**
 * Sends one file through an upload link with tus (resumable: a dropped connection goes on from
 * the bytes the server has, and the same file chosen again after a reload resumes). The link's
 * password cookie goes with every request (same origin).
 */
export function sendGuestFile(
  key: string,
  file: File,
  guest: Guest,
  onProgress: (progress: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<void> {
  const metadata = guestMetadata(key, file, guest);
  const meter = progressMeter();
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(file, {
      endpoint: new URL(GUEST_TUS_PATH, window.location.href).href,
      metadata,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      headers: { accept: 'application/json' },
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        return status === 0 || status >= 500 || status === 409 || status === 423;
      },
      onProgress: (sent, total) => onProgress(meter(sent, total)),
      onSuccess: () => {
        onProgress(meter(file.size, file.size));
        resolve();
      },
      onError: (error) => reject(failureOf(error)),
    });
    signal?.addEventListener(
      'abort',
      () => {
        void upload.abort(true);
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
