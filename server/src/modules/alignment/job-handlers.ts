import { defineJob, type JobDefinition } from '../../jobs/registry';
import type { Services } from '../../services';
import { alignVersionsJob } from './jobs';

/** What the alignment module's job does, through its service (registered by jobs/catalog.ts). */
export function alignmentJobs(services: () => Services, mediaTimeoutMs: number): JobDefinition[] {
  return [
    defineJob({
      ...alignVersionsJob,
      retryLimit: 1,
      retryDelaySeconds: 30,
      // Two decodes and the warping: well inside two media time limits.
      timeoutSeconds: Math.ceil((2 * mediaTimeoutMs) / 1000) + 60,
      handle: ({ fromVersionId, toVersionId }, context) =>
        services().alignment.run(fromVersionId, toVersionId, context),
    }),
  ];
}
