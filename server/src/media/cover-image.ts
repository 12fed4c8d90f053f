import { pipeline, type Readable } from 'node:stream';
import { MAX_COVER_BYTES, REPO_MESSAGES } from '@takes/contract';
import { TooLarge, Unsupported } from '../errors';
import { ObjectTooLargeError, type ObjectStore } from '../storage/object-store';
import { ImageSniffer, UnsupportedImageError } from './image-type';

/**
 * Stores an uploaded cover image (a repository's or a collection's) under `key`: a PNG, JPEG or
 * WebP recognised by its content, never by its name or declared type, of at most
 * MAX_COVER_BYTES. Answers the sniffed media type; refuses anything else with 415 or 413, and
 * then nothing stays stored.
 */
export async function storeCoverImage(
  storage: ObjectStore,
  key: string,
  file: Readable,
): Promise<string> {
  const sniffer = new ImageSniffer();
  pipeline(file, sniffer, () => undefined);
  try {
    await storage.put(key, sniffer, { maxBytes: MAX_COVER_BYTES });
  } catch (error) {
    if (error instanceof UnsupportedImageError) throw new Unsupported(REPO_MESSAGES.coverInvalid);
    if (error instanceof ObjectTooLargeError) throw new TooLarge(REPO_MESSAGES.coverTooLarge);
    throw error;
  }
  return sniffer.type?.mime ?? 'application/octet-stream';
}

/** A cover's URL at `path`, versioned by its key's own id: a new cover is a new URL. */
export function versionedCoverUrl(path: string, key: string): string {
  return `${path}?v=${encodeURIComponent(key.split('/').pop() ?? '')}`;
}
