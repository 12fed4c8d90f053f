import { formatStorageBytes } from '@takes/contract';
import { AppError } from '../../errors';

/** What one person's unfinished resumable uploads may hold at once (RESUMABLE_UPLOADS_MAX_*). */
export interface OpenUploadCaps {
  /** Unfinished uploads at once. */
  maxOpen: number;
  /** Their declared lengths (Upload-Length) together, in bytes. */
  maxBytes: number;
}

/** A person's unfinished uploads, as counted when one more is asked for. */
export interface HeldUploads {
  open: number;
  bytes: number;
}

const FINISH_ONE = 'Finish or cancel one before starting another.';

/**
 * Why one more upload does not fit, or undefined when it does: 429 with a sentence that names
 * the limit, and `details.limit` for programs ('open_uploads' or 'bytes_in_flight').
 */
export function capRefusal(
  held: HeldUploads,
  size: number,
  caps: OpenUploadCaps,
): AppError | undefined {
  if (held.open >= caps.maxOpen) {
    const have = held.open === 1 ? '1 unfinished upload' : `${held.open} unfinished uploads`;
    const most = caps.maxOpen === 1 ? 'at most 1 is' : `at most ${caps.maxOpen} are`;
    return new AppError(
      'rate_limited',
      `You have ${have}, and ${most} allowed at once. ${FINISH_ONE}`,
      { limit: 'open_uploads', open: held.open, max_open: caps.maxOpen },
    );
  }
  if (held.bytes + size > caps.maxBytes) {
    return new AppError(
      'rate_limited',
      `Your unfinished uploads already hold ${formatStorageBytes(held.bytes)} of the ` +
        `${formatStorageBytes(caps.maxBytes)} allowed at once, and this file is ${formatStorageBytes(size)}. ${FINISH_ONE}`,
      { limit: 'bytes_in_flight', held_bytes: held.bytes, max_bytes: caps.maxBytes },
    );
  }
  return undefined;
}
