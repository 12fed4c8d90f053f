import type { StorageUsage } from './admin';

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/**
 * A stored size in the product's binary units, as /settings and the quota messages write it:
 * '12.4 GB', '20 GB', '800 MB' (one decimal below 100, none from 100 up).
 */
export function formatStorageBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const shown = value >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${shown} ${UNITS[unit]}`;
}

/** The line on /settings and the upload page: '12.4 GB of 20 GB used', or '12.4 GB used'. */
export function storageUsageLine(usage: StorageUsage): string {
  const used = formatStorageBytes(usage.used_bytes);
  return usage.quota_bytes === null
    ? `${used} used`
    : `${used} of ${formatStorageBytes(usage.quota_bytes)} used`;
}

/** Why an upload is refused: by how much it would go over, and what is used of what. */
export function quotaRefusalMessage(
  overBytes: number,
  usedBytes: number,
  quotaBytes: number,
): string {
  return (
    `This upload would go over your storage quota by ${formatStorageBytes(overBytes)} ` +
    `(${formatStorageBytes(usedBytes)} of ${formatStorageBytes(quotaBytes)} used).`
  );
}

/** The same refusal told to someone uploading into another person's storage (an editor, a guest). */
export function ownerQuotaRefusalMessage(overBytes: number): string {
  return `This upload would go over the owner's storage quota by ${formatStorageBytes(overBytes)}.`;
}
