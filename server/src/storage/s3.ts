import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { pipeline, Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ByteCounter } from './byte-limit';
import {
  assertValidKey,
  assertValidPrefix,
  ObjectNotFoundError,
  ObjectTooLargeError,
  RangeNotSatisfiableError,
  StorageUnavailableError,
  type ByteRange,
  type ObjectBody,
  type ObjectInfo,
  type ObjectStore,
  type PutOptions,
  type SignedUrlOptions,
} from './object-store';

export interface S3StoreOptions {
  bucket: string;
  region: string;
  endpoint?: string | undefined;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle?: boolean;
  /** Media routes redirect to presigned URLs (S3_PRESIGNED_REDIRECT). */
  presignedRedirect?: boolean;
}

const PART_SIZE = 8 * 1024 * 1024;

/**
 * How long a request may wait for the S3 server. An unreachable store must answer the request
 * that needs it with a 503 within seconds, not hang: 2 s to connect, and one retry (2 attempts)
 * for a blip. A server that takes the connection but does not answer is given 15 s until its
 * response starts (the SDK's requestTimeout: it covers sending a part, 8 MB, on a slow uplink;
 * it ends once the response has started, so a paused listener's stream is never cut by it).
 */
export const S3_TIMEOUTS = { connectionTimeout: 2000, requestTimeout: 15_000, maxAttempts: 2 };

/** How Takes talks to an S3-compatible server: the object store and the resumable uploads' parts. */
export function s3ClientConfig(options: S3StoreOptions): S3ClientConfig {
  return {
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle ?? false,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
    // Checksums only where S3 requires them: S3-compatible servers often reject the SDK's
    // default streaming checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: S3_TIMEOUTS.maxAttempts,
    requestHandler: {
      connectionTimeout: S3_TIMEOUTS.connectionTimeout,
      requestTimeout: S3_TIMEOUTS.requestTimeout,
      // Without it the SDK only logs a warning when the time is up, and waits on.
      throwOnRequestTimeout: true,
    },
  };
}

/** Objects in an S3-compatible bucket; large writes go up as multipart uploads. */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3' as const;
  readonly presignedRedirect: boolean;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(
    /** Also what the resumable uploads' bucket store connects with. */
    readonly options: S3StoreOptions,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.bucket = options.bucket;
    this.presignedRedirect = options.presignedRedirect ?? false;
    this.client = new S3Client(s3ClientConfig(options));
  }

  async put(key: string, body: Readable, options: PutOptions = {}): Promise<{ size: number }> {
    assertValidKey(key);
    const counter = new ByteCounter(options.maxBytes);
    // pipeline, not pipe: a source error aborts the upload, and a refused size stops the source.
    pipeline(body, counter, () => undefined);
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: key,
        Body: counter,
        ContentType: options.contentType,
      },
      partSize: PART_SIZE,
      queueSize: 4,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // The source stops too (its file closed), whatever the store said.
      counter.destroy();
      throw unavailableOr(error);
    }
    return { size: counter.bytes };
  }

  async putFile(key: string, file: string, options: PutOptions = {}): Promise<{ size: number }> {
    const { size } = await fsp.stat(file);
    if (options.maxBytes !== undefined && size > options.maxBytes)
      throw new ObjectTooLargeError(options.maxBytes);
    return this.put(key, fs.createReadStream(file, { highWaterMark: 1 << 20 }), options);
  }

  async get(key: string, range?: ByteRange): Promise<ObjectBody> {
    assertValidKey(key);
    try {
      const result = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
        }),
      );
      const body = result.Body instanceof Readable ? result.Body : Readable.from([]);
      const size = totalSize(result.ContentRange, result.ContentLength);
      const start = range?.start ?? 0;
      const end = start + (result.ContentLength ?? 0) - 1;
      return { body, size, start, end };
    } catch (error) {
      if (isStatus(error, 404)) throw new ObjectNotFoundError(key);
      if (isStatus(error, 416)) {
        const info = await this.head(key);
        throw new RangeNotSatisfiableError(info?.size ?? 0);
      }
      throw unavailableOr(error);
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    assertValidKey(key);
    try {
      const result = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: key }),
      );
      return {
        key,
        size: result.ContentLength ?? 0,
        lastModified: result.LastModified ?? new Date(0),
        // A hash of the content (MD5, or of the parts for a multipart upload), never weak.
        etag: result.ETag && !result.ETag.startsWith('W/') ? result.ETag : undefined,
      };
    } catch (error) {
      if (isStatus(error, 404)) return null;
      throw unavailableOr(error);
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client
      .send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }))
      .catch((error: unknown) => {
        throw unavailableOr(error);
      });
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    assertValidPrefix(prefix);
    const found: ObjectInfo[] = [];
    let token: string | undefined;
    do {
      const page = await this.client
        .send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix,
            ContinuationToken: token,
          }),
        )
        .catch((error: unknown) => {
          throw unavailableOr(error);
        });
      for (const item of page.Contents ?? []) {
        if (!item.Key) continue;
        found.push({
          key: item.Key,
          size: item.Size ?? 0,
          lastModified: item.LastModified ?? new Date(0),
        });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found.sort((a, b) => a.key.localeCompare(b.key));
  }

  signedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    assertValidKey(key);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: options.downloadName
        ? contentDisposition(options.downloadName)
        : undefined,
      ResponseContentType: options.contentType,
    });
    return getSignedUrl(this.client, command, {
      expiresIn: options.expiresInSeconds,
      signingDate: this.now(),
    });
  }

  async check(): Promise<void> {
    await this.client
      .send(new HeadBucketCommand({ Bucket: this.bucket }))
      .catch((error: unknown) => {
        throw unavailableOr(error);
      });
  }

  destroy(): void {
    this.client.destroy();
  }
}

function totalSize(contentRange: string | undefined, contentLength: number | undefined): number {
  const match = contentRange ? /\/(\d+)$/.exec(contentRange) : null;
  return match?.[1] ? Number(match[1]) : (contentLength ?? 0);
}

/** Network failures of any depth (the SDK wraps some); codes of Node's sockets and the SDK's timeouts. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Whether an error says the S3 server could not be reached or is failing (5xx), not a refusal. */
export function isUnreachable(error: unknown, depth = 0): boolean {
  if (depth > 5 || !error || typeof error !== 'object') return false;
  if (error instanceof S3ServiceException) {
    const status = error.$metadata.httpStatusCode;
    return status !== undefined && status >= 500;
  }
  const { code, name, cause, errors } = error as {
    code?: unknown;
    name?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
  if (name === 'TimeoutError' || name === 'RequestTimeout') return true;
  if (Array.isArray(errors) && errors.some((e) => isUnreachable(e, depth + 1))) return true;
  return isUnreachable(cause, depth + 1);
}

function unavailableOr(error: unknown): unknown {
  return isUnreachable(error) ? new StorageUnavailableError({ cause: error }) : error;
}

export function isStatus(error: unknown, status: number): boolean {
  if (error instanceof S3ServiceException) return error.$metadata.httpStatusCode === status;
  return false;
}

export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
