import { pipeline, Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ByteCounter } from './byte-limit';
import {
  assertValidKey,
  assertValidPrefix,
  ObjectNotFoundError,
  RangeNotSatisfiableError,
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
}

const PART_SIZE = 8 * 1024 * 1024;

/** Objects in an S3-compatible bucket; large writes go up as multipart uploads. */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(
    options: S3StoreOptions,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.bucket = options.bucket;
    this.client = new S3Client({
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
    });
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
    await upload.done();
    return { size: counter.bytes };
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
      throw error;
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
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    assertValidPrefix(prefix);
    const found: ObjectInfo[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
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
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  destroy(): void {
    this.client.destroy();
  }
}

function totalSize(contentRange: string | undefined, contentLength: number | undefined): number {
  const match = contentRange ? /\/(\d+)$/.exec(contentRange) : null;
  return match?.[1] ? Number(match[1]) : (contentLength ?? 0);
}

function isStatus(error: unknown, status: number): boolean {
  if (error instanceof S3ServiceException) return error.$metadata.httpStatusCode === status;
  return false;
}

export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
