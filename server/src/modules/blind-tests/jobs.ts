import { z } from 'zod';

/** Makes a blind test's loudness-matched, equal-length audio (see BlindTestsService.render). */
export const renderBlindTestJob = {
  name: 'blind-tests.render',
  payload: z.object({ testId: z.string().min(1) }),
};
