import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { Database } from '../../db/schema';
import type { ObjectStore } from '../../storage/object-store';
import { deleteOriginalIfUnused } from '../audio';
import { PublishRepo } from './publish.repo';

/**
 * The clean-up of an abandoned publish: once its token has expired, an upload never
 * completed goes with its stored object (unless something else uses the same content).
 * A completed upload only loses its row. Running it again changes nothing.
 */
export async function expireUpload(
  deps: { db: Kysely<Database>; storage: ObjectStore; clock: Clock },
  uploadId: string,
): Promise<void> {
  const uploads = new PublishRepo(deps.db);
  const upload = await uploads.upload(uploadId);
  if (!upload) return;
  const now = deps.clock.now().toISOString();
  if (upload.status !== 'completed' && upload.expires_at > now) return;
  await uploads.deleteUpload(uploadId);
  if (upload.status !== 'completed' && upload.object_key)
    await deleteOriginalIfUnused(deps.db, deps.storage, upload.object_key);
}
