import { describe, expect, it } from 'vitest';
import { formatStorageBytes, MAX_UPLOAD_BYTES } from '@takes/contract';
import { loadConfig } from '../../config';
import { capRefusal } from './open-upload-caps';

const MB = 1024 * 1024;
const GB = 1024 * MB;

describe('caps on unfinished resumable uploads', () => {
  it('are 5 uploads and 2.5 GB unless configured', () => {
    expect(loadConfig({}).resumableUploads).toEqual({ maxOpen: 5, maxBytes: 2.5 * GB });
    expect(
      loadConfig({ RESUMABLE_UPLOADS_MAX_OPEN: '8', RESUMABLE_UPLOADS_MAX_BYTES: '4GB' })
        .resumableUploads,
    ).toEqual({ maxOpen: 8, maxBytes: 4 * GB });
    expect(loadConfig({ RESUMABLE_UPLOADS_MAX_BYTES: '800 mb' }).resumableUploads.maxBytes).toBe(
      800 * MB,
    );
    expect(
      loadConfig({ RESUMABLE_UPLOADS_MAX_BYTES: String(MAX_UPLOAD_BYTES) }).resumableUploads
        .maxBytes,
    ).toBe(MAX_UPLOAD_BYTES);
  });

  it('stop the server with a message naming a bad variable', () => {
    expect(() => loadConfig({ RESUMABLE_UPLOADS_MAX_OPEN: '0' })).toThrow(
      'Invalid configuration: RESUMABLE_UPLOADS_MAX_OPEN must be greater than 0 (got "0")',
    );
    expect(() => loadConfig({ RESUMABLE_UPLOADS_MAX_OPEN: 'five' })).toThrow(
      'RESUMABLE_UPLOADS_MAX_OPEN must be a number',
    );
    expect(() => loadConfig({ RESUMABLE_UPLOADS_MAX_BYTES: 'lots' })).toThrow(
      'Invalid configuration: RESUMABLE_UPLOADS_MAX_BYTES must be a size such as 2.5GB or 800MB, or a number of bytes (got "lots")',
    );
    expect(() => loadConfig({ RESUMABLE_UPLOADS_MAX_BYTES: '100MB' })).toThrow(
      'Invalid configuration: RESUMABLE_UPLOADS_MAX_BYTES must be at least 500MB (the largest single upload) (got "100MB")',
    );
  });

  it('write sizes in the product’s units', () => {
    expect(formatStorageBytes(2.5 * GB)).toBe('2.5 GB');
    expect(formatStorageBytes(MAX_UPLOAD_BYTES)).toBe('500 MB');
    expect(formatStorageBytes(2100 * MB)).toBe('2.1 GB');
    expect(formatStorageBytes(1000)).toBe('1000 bytes');
    expect(formatStorageBytes(1)).toBe('1 byte');
  });

  it('say which limit one more upload would pass', () => {
    const caps = { maxOpen: 5, maxBytes: 2.5 * GB };
    expect(capRefusal({ open: 4, bytes: 2 * GB }, 500 * MB, caps)).toBeUndefined();
    expect(capRefusal({ open: 5, bytes: 0 }, 1, caps)?.message).toBe(
      'You have 5 unfinished uploads, and at most 5 are allowed at once. Finish or cancel one before starting another.',
    );
    const bytes = capRefusal({ open: 4, bytes: 2.1 * GB }, 500 * MB, caps);
    expect(bytes?.code).toBe('rate_limited');
    expect(bytes?.message).toBe(
      'Your unfinished uploads already hold 2.1 GB of the 2.5 GB allowed at once, and this file is 500 MB. Finish or cancel one before starting another.',
    );
    expect(capRefusal({ open: 1, bytes: 0 }, 1, { maxOpen: 1, maxBytes: GB })?.message).toBe(
      'You have 1 unfinished upload, and at most 1 is allowed at once. Finish or cancel one before starting another.',
    );
  });
});
