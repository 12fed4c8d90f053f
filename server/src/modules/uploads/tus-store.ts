import fs from 'node:fs';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import { ERRORS, type DataStore } from '@tus/server';
import type { ObjectStore } from '../../storage/object-store';
import { s3ClientConfig, S3ObjectStore } from '../../storage/s3';

/** S3 parts: at least 5 MiB each (S3's minimum but for the last), 8 MiB as the object store's. */
const PART_SIZE = 8 * 1024 * 1024;

/**
 * FileStore on a folder made beforehand (createTusStore makes it, at once): FileStore's own
 * mkdir runs later and throws out of a callback (an uncaught exception, the process ends) when
 * the data folder is gone by then.
 */
class MadeFolderFileStore extends FileStore {}
(
  MadeFolderFileStore.prototype as unknown as { checkOrCreateDirectory(): void }
).checkOrCreateDirectory = () => {};

function isNotFound(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata
    ?.httpStatusCode;
  return status === 404;
}

/**
 * @tus/s3-store with a removal that leaves nothing: its own aborts the multipart upload and
 * deletes the object and its `.info`, but it fails without deleting anything once the multipart
 * upload was completed (the finished file, which Takes removes after taking it in), and it never
 * deletes the `.part` object (the bytes after the last whole part) of an abandoned upload.
 */
export class BucketTusStore extends S3Store {
  override async remove(id: string): Promise<void> {
    let uploadId: string | undefined;
    try {
      uploadId = (await this.getMetadata(id))['upload-id'];
    } catch (error) {
      // tus's own answer (404), as an Error.
      if (isNotFound(error))
        throw Object.assign(new Error('Upload not found'), ERRORS.FILE_NOT_FOUND);
      throw error;
    }
    if (uploadId) {
      await this.client
        .abortMultipartUpload({ Bucket: this.bucket, Key: id, UploadId: uploadId })
        .catch((error: unknown) => {
          // Completed (the file is whole) or aborted before: nothing to abort.
          if (!isNotFound(error)) throw error;
        });
    }
    await this.client.deleteObjects({
      Bucket: this.bucket,
      Delete: {
        Objects: [{ Key: id }, { Key: this.infoKey(id) }, { Key: this.partKey(id, true) }],
        Quiet: true,
      },
    });
    await this.clearCache(id);
  }
}

/**
 * Where a resumable upload's bytes wait until the last one arrives: with the S3 driver, in the
 * bucket (S3 multipart parts, so any serve process can take the next PATCH of an upload another
 * one started; keys `<id>`, `<id>.info` and `<id>.part` at the bucket's top level, beside Takes'
 * own prefixed keys); with the local driver, in a folder under DATA_DIR. Either way the finished
 * file then goes through the intake into the object store, and the tus copy is removed.
 */
export function createTusStore(storage: ObjectStore, dataDir: string): DataStore {
  if (storage instanceof S3ObjectStore) {
    return new BucketTusStore({
      partSize: PART_SIZE,
      s3ClientConfig: { bucket: storage.options.bucket, ...s3ClientConfig(storage.options) },
    });
  }
  const directory = path.join(dataDir, 'resumable-uploads');
  fs.mkdirSync(directory, { recursive: true });
  return new MadeFolderFileStore({ directory });
}
