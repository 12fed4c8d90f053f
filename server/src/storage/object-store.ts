import type { Readable } from 'node:stream';
import { ERROR_MESSAGES } from '@takes/contract';
import { Unavailable } from '../errors';

export interface ObjectInfo {
  key: string;
  size: number;
  lastModified: Date;
  /** The store's own strong validator of the content, quoted (S3's ETag), when it keeps one. */
  etag?: string | undefined;
}

/** Inclusive byte range, as in an HTTP Range header. `end` defaults to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface ObjectBody {
  body: Readable;
  /** Size of the whole object. */
  size: number;
  /** First and last byte (inclusive) of what `body` yields; end is -1 for an empty object. */
  start: number;
  end: number;
}

export interface PutOptions {
  contentType?: string;
  /** Abort the write (nothing stored) once more than this many bytes arrive. */
  maxBytes?: number;
}

export interface SignedUrlOptions {
  expiresInSeconds: number;
  /** Offer the object as a download with this file name. */
  downloadName?: string;
  contentType?: string;
}

/** Where audio, renditions and images live. Keys are made by the server, never by users. */
export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /**
   * When true, media routes (audio, downloads, covers) answer with a redirect to a short-lived
   * signed URL of the object instead of passing its bytes through this process.
   */
  readonly presignedRedirect?: boolean;
  put(key: string, body: Readable, options?: PutOptions): Promise<{ size: number }>;
  /**
   * Stores a copy of a file on this machine's disk (the file itself is left as it was). A local
   * store copies it in the kernel, without passing its bytes through this process.
   */
  putFile(key: string, file: string, options?: PutOptions): Promise<{ size: number }>;
  /** Throws ObjectNotFoundError or RangeNotSatisfiableError. */
  get(key: string, range?: ByteRange): Promise<ObjectBody>;
  head(key: string): Promise<ObjectInfo | null>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  list(prefix: string): Promise<ObjectInfo[]>;
  signedUrl(key: string, options: SignedUrlOptions): Promise<string>;
  /** Health check: throws when the store cannot be used. */
  check(): Promise<void>;
  /** Where the object is on this machine's disk, when the store keeps it there (read only). */
  localPath?(key: string): string;
}

export class ObjectNotFoundError extends Error {
  override name = 'ObjectNotFoundError';
  constructor(readonly key: string) {
    super(`Object not found: ${key}`);
  }
}

export class ObjectTooLargeError extends Error {
  override name = 'ObjectTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`Object exceeds the limit of ${maxBytes} bytes`);
  }
}

/**
 * The store cannot be reached (its server is down, refuses or times out): the request may
 * succeed later, so it answers 503 with a message that says to try again.
 */
export class StorageUnavailableError extends Unavailable {
  override name = 'StorageUnavailableError';
  constructor(options?: ErrorOptions) {
    super(ERROR_MESSAGES.storageUnavailable);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

export class RangeNotSatisfiableError extends Error {
  override name = 'RangeNotSatisfiableError';
  constructor(readonly size: number) {
    super(`Range not satisfiable for an object of ${size} bytes`);
  }
}

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*(\/[A-Za-z0-9][A-Za-z0-9_.-]*)*$/;

/** Keys are server-made paths: segments of letters, digits, `_`, `.`, `-`; no `..`, no leading `/`. */
export function assertValidKey(key: string): void {
  if (
    key.length > 512 ||
    !KEY_PATTERN.test(key) ||
    key.split('/').some((s) => s === '..' || s === '.')
  ) {
    throw new Error(`Invalid object key: ${JSON.stringify(key)}`);
  }
}

export function assertValidPrefix(prefix: string): void {
  if (prefix === '') return;
  assertValidKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}

/** Resolves a requested range against an object size, or throws RangeNotSatisfiableError. */
export function resolveRange(size: number, range?: ByteRange): { start: number; end: number } {
  if (!range) return { start: 0, end: size - 1 };
  const end = Math.min(range.end ?? size - 1, size - 1);
  if (range.start < 0 || range.start >= size || end < range.start) {
    throw new RangeNotSatisfiableError(size);
  }
  return { start: range.start, end };
}
