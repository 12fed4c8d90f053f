import { LINK_PASSWORD_MESSAGES } from './sharing-limits';

// Blind tests, without schemas: the words, limits and arithmetic a page needs load without zod.
// `blind-tests.ts` adds the schemas and re-exports all of this.

export const BLIND_TEST_MODES = ['preference', 'abx', 'both'] as const;
export type BlindTestMode = (typeof BLIND_TEST_MODES)[number];
export const BLIND_TEST_MODE_LABELS: Record<BlindTestMode, string> = {
  preference: 'Preference',
  abx: 'ABX',
  both: 'Preference and ABX',
};
export const BLIND_TEST_VERSIONS_MIN = 2;
export const BLIND_TEST_VERSIONS_MAX = 4;
export const BLIND_TEST_TRIALS_DEFAULT = 10;
export const BLIND_TEST_TRIALS_MIN = 5;
export const BLIND_TEST_TRIALS_MAX = 20;
export const BLIND_TEST_NAME_MAX = 100;
export const BLIND_TEST_NOTE_MAX = 2000;
export const BLIND_TEST_RECIPIENTS_MAX = 50;
/** A p-value at or under this says the listeners can hear the difference. */
export const BLIND_TEST_SIGNIFICANCE = 0.05;
/** Letters of a preference test's options, in the order they are shown. */
export const PREFERENCE_LETTERS = ['X', 'Y', 'Z', 'W'] as const;
/** Letters of an ABX test's two references. */
export const ABX_LETTERS = ['A', 'B'] as const;

export const BLIND_TEST_MESSAGES = {
  notFound: 'Blind test not found',
  versionCount: `Pick ${BLIND_TEST_VERSIONS_MIN} to ${BLIND_TEST_VERSIONS_MAX} versions.`,
  versionTwice: 'Pick each version once.',
  abxTwo: 'ABX compares two versions: pick exactly two.',
  trials: `ABX takes ${BLIND_TEST_TRIALS_MIN} to ${BLIND_TEST_TRIALS_MAX} trials.`,
  notProcessed: 'Every version must finish processing before it can be in a blind test.',
  nameRequired: 'Give the blind test a name.',
  nameTooLong: `A name can be at most ${BLIND_TEST_NAME_MAX} characters.`,
  recipientNameRequired: 'Give each recipient a name.',
  passwordTooShort: LINK_PASSWORD_MESSAGES.tooShort,
  passwordTooLong: LINK_PASSWORD_MESSAGES.tooLong,
  needsPassword: LINK_PASSWORD_MESSAGES.needsPassword,
  wrongPassword: LINK_PASSWORD_MESSAGES.wrongPassword,
  listenerName: 'Tell us your name first.',
  listenerNameTooLong: 'A name can be at most 100 characters.',
  noteTooLong: `A note can be at most ${BLIND_TEST_NOTE_MAX} characters.`,
  optionNotFound: 'Option not found',
  noPreference: 'This blind test asks for no preference.',
  noAbx: 'This blind test has no ABX trials.',
  trialOrder: 'Answer the trials in order.',
  abxFinished: 'Every trial has been answered.',
  preparing: 'The blind test is still being prepared. Try again in a moment.',
  failed: 'The blind test could not be prepared.',
  noWinner: 'There is no single winner yet.',
  winnerNotInTest: 'That version is not in this blind test.',
} as const;

/** An ABX score and what it says. */
export interface BlindVerdict {
  correct: number;
  total: number;
  /** One-sided binomial: the chance of this many or more correct by guessing. */
  p_value: number | null;
  /** '9 of 10 correct, p = 0.011: they can hear the difference' */
  verdict: string;
  heard: boolean;
}

/**
 * One-sided binomial p-value of an ABX score: the chance of `correct` or more right out of
 * `total` by guessing (p = 1/2 each). 9 of 10 → 0.0107; 5 of 10 → 0.623.
 */
export function binomialPValue(correct: number, total: number): number {
  if (total <= 0) return 1;
  let sum = 0;
  let ways = 1; // C(total, 0)
  for (let k = 0; k <= total; k++) {
    if (k >= correct) sum += ways;
    ways = (ways * (total - k)) / (k + 1);
  }
  return sum / 2 ** total;
}

/** An ABX score in words: '9 of 10 correct, p = 0.011: they can hear the difference'. */
export function abxVerdict(correct: number, total: number): BlindVerdict {
  if (total === 0)
    return { correct, total, p_value: null, verdict: 'No trials answered yet', heard: false };
  const p = binomialPValue(correct, total);
  const heard = p <= BLIND_TEST_SIGNIFICANCE;
  const shown = p < 0.001 ? '< 0.001' : `= ${p.toFixed(3)}`;
  const words = heard
    ? 'they can hear the difference'
    : 'no sign they can hear the difference (guessing does as well)';
  return {
    correct,
    total,
    p_value: Math.round(p * 10_000) / 10_000,
    verdict: `${correct} of ${total} correct, p ${shown}: ${words}`,
    heard,
  };
}
