import type { DataStore } from '@tus/server';
import type { ResumableUploadsRepo } from './resumable-uploads.repo';

/**
 * The store as @tus/server uses it, with each write's kept bytes added to the upload's count
 * as the write ends, under the upload's lock: a PATCH that ended well, and one cut off by a
 * dropped connection (its bytes up to the break are kept; the store's offset says how many),
 * so a resumed upload shows on the server whether any byte was sent twice. A client's
 * termination (DELETE) removes the row with the bytes, and a create the store refused leaves
 * no row: either way the upload no longer counts against its owner's caps.
 */
export function countedStore(
  store: DataStore,
  repo: Pick<ResumableUploadsRepo, 'addReceived' | 'delete'>,
  now: () => string,
): DataStore {
  const count = async (id: string, start: number, end: number) => {
    if (end > start) await repo.addReceived(id, end - start, now());
  };
  const write: DataStore['write'] = async (readable, id, offset) => {
    let end: number;
    try {
      end = await store.write(readable, id, offset);
    } catch (error) {
      const kept = await store.getUpload(id).then(
        (upload) => upload.offset,
        () => offset,
      );
      await count(id, offset, kept);
      throw error;
    }
    await count(id, offset, end);
    return end;
  };
  const create: DataStore['create'] = async (upload) => {
    try {
      return await store.create(upload);
    } catch (error) {
      await repo.delete(upload.id);
      throw error;
    }
  };
  const remove: DataStore['remove'] = async (id) => {
    try {
      await store.remove(id);
    } catch (error) {
      // Bytes already gone (a sweep got there first): the row goes all the same.
      if ((error as { status_code?: number }).status_code !== 404) throw error;
    }
    await repo.delete(id);
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'write') return write;
      if (property === 'create') return create;
      if (property === 'remove') return remove;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}
