/**
 * The layout of the object store, in one place. Originals are stored once per content hash
 * (shared by every version, bounce and upload of the same bytes); renditions and peaks belong
 * to one row and have fixed keys, so processing again overwrites instead of duplicating.
 */
export const storageKeys = {
  original: (sha256: string) => `originals/${sha256.slice(0, 2)}/${sha256}`,
  rendition: (rowId: string, quality: 'high' | 'standard') => `renditions/${rowId}/${quality}.mp3`,
  lossless: (rowId: string) => `renditions/${rowId}/lossless.flac`,
  peaks: (rowId: string) => `peaks/${rowId}.json`,
  cover: (repoId: string, id: string) => `covers/${repoId}/${id}`,
  collectionCover: (collectionId: string, id: string) => `collection-covers/${collectionId}/${id}`,
};

/** An original's key is its SHA-256 (`originals/ab/abcd…`): that hash, or undefined for any other key. */
export function originalHashOf(key: string): string | undefined {
  const hash = key.split('/').pop() ?? '';
  return key.startsWith('originals/') && /^[0-9a-f]{64}$/.test(hash) ? hash : undefined;
}
