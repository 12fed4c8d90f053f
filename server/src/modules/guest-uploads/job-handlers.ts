import { defineJob, type JobDefinition } from '../../jobs/registry';
import type { Services } from '../../services';
import { processGuestFileJob } from './jobs';

/** What the guest-uploads module's jobs do (registered by jobs/catalog.ts). */
export function guestUploadsJobs(
  services: () => Services,
  mediaTimeoutMs: number,
): JobDefinition[] {
  return [
    defineJob({
      ...processGuestFileJob,
      retryLimit: 2,
      retryDelaySeconds: 15,
      timeoutSeconds: Math.ceil(mediaTimeoutMs / 1000) + 60,
      // The one processing of versions and bounces, on the guest file's row.
      handle: ({ guestFileId }, context) =>
        services().audio.process('guest_files', guestFileId, context),
    }),
  ];
}
