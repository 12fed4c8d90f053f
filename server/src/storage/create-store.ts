import type { StorageConfig } from '../config';
import { LocalObjectStore } from './local';
import type { ObjectStore } from './object-store';
import { S3ObjectStore } from './s3';
import type { UrlSigner } from './url-signer';

/** The one place that picks the storage implementation from configuration. */
export function createObjectStore(
  config: StorageConfig,
  signer: UrlSigner,
  now: () => Date,
): ObjectStore {
  switch (config.driver) {
    case 'local':
      return new LocalObjectStore(config.dir, signer, now);
    case 's3':
      return new S3ObjectStore(config, now);
  }
}
