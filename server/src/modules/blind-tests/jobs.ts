import { z } from 'zod';

/** Makes a blind test's loudness-matched, equal-length audio (see BlindTestsService.render). */
export const renderBlindTestJob = {
  name: 'blind-tests.render',
  payload: z.object({ testId: z.string().min(1) }),
};

/**
 * Recurring (see main.ts): removes blind-test audio no live test plays any more (a revoked test's,
 * a deleted version's or project's), so deleting music deletes its blind copies too.
 */
export const sweepBlindAudioJob = {
  name: 'blind-tests.sweep',
  payload: z.object({}),
};
