import { defineJob, type JobDefinition } from '../../jobs/registry';
import type { Services } from '../../services';
import { renderBlindTestJob, sweepBlindAudioJob } from './jobs';

/** What the blind-tests module's job does, through its service (registered by jobs/catalog.ts). */
export function blindTestJobs(services: () => Services, mediaTimeoutMs: number): JobDefinition[] {
  return [
    defineJob({
      ...renderBlindTestJob,
      retryLimit: 1,
      retryDelaySeconds: 30,
      // Up to four decodes and encodes, one after another.
      timeoutSeconds: Math.ceil((8 * mediaTimeoutMs) / 1000) + 60,
      handle: ({ testId }, context) => services().blindTests.owner.render(testId, context),
    }),
    defineJob({
      ...sweepBlindAudioJob,
      retryLimit: 1,
      retryDelaySeconds: 60,
      timeoutSeconds: 600,
      handle: async (_payload, context) => {
        const removed = await services().blindTests.owner.sweep();
        if (removed > 0) context.logger.info({ removed }, 'unused blind-test audio removed');
      },
    }),
  ];
}
