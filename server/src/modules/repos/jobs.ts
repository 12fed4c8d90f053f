import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Clock } from '../../clock';
import type { Database } from '../../db/schema';
import { defineJob, type JobDefinition } from '../../jobs/registry';
import type { ObjectStore } from '../../storage/object-store';
import { expireUpload } from './upload-expiry';

/** Removes a bounce publish that was never completed, once its upload token has expired. */
export const expireUploadJob = {
  name: 'bounces.expire-upload',
  payload: z.object({ uploadId: z.string().min(1) }),
};

export function reposJobs(deps: {
  db: Kysely<Database>;
  storage: ObjectStore;
  clock: Clock;
}): JobDefinition[] {
  return [
    defineJob({
      ...expireUploadJob,
      retryLimit: 8,
      retryDelaySeconds: 30,
      handle: ({ uploadId }) => expireUpload(deps, uploadId),
    }),
  ];
}
