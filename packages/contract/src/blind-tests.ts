import { z } from 'zod';
import {
  BLIND_TEST_MESSAGES,
  BLIND_TEST_MODES,
  BLIND_TEST_NAME_MAX,
  BLIND_TEST_NOTE_MAX,
  BLIND_TEST_RECIPIENTS_MAX,
  BLIND_TEST_TRIALS_MAX,
  BLIND_TEST_TRIALS_MIN,
  BLIND_TEST_VERSIONS_MAX,
  BLIND_TEST_VERSIONS_MIN,
} from './blind-test-rules';
import { linkPasswordSchema, unlockLinkBodySchema } from './sharing';

export * from './blind-test-rules';

// Blind tests: 2–4 versions of one project played through a share link with nothing but a
// letter to tell them apart, loudness-matched, for a preference vote, an ABX test, or both.

const versionIds = z
  .array(z.string().min(1).max(64), { error: BLIND_TEST_MESSAGES.versionCount })
  .min(BLIND_TEST_VERSIONS_MIN, BLIND_TEST_MESSAGES.versionCount)
  .max(BLIND_TEST_VERSIONS_MAX, BLIND_TEST_MESSAGES.versionCount)
  .refine((ids) => new Set(ids).size === ids.length, BLIND_TEST_MESSAGES.versionTwice);

export const createBlindTestBodySchema = z
  .object({
    version_ids: versionIds,
    mode: z.enum(BLIND_TEST_MODES),
    trials: z
      .number({ error: BLIND_TEST_MESSAGES.trials })
      .int(BLIND_TEST_MESSAGES.trials)
      .min(BLIND_TEST_TRIALS_MIN, BLIND_TEST_MESSAGES.trials)
      .max(BLIND_TEST_TRIALS_MAX, BLIND_TEST_MESSAGES.trials)
      .optional(),
    name: z
      .string({ error: BLIND_TEST_MESSAGES.nameRequired })
      .trim()
      .min(1, BLIND_TEST_MESSAGES.nameRequired)
      .max(BLIND_TEST_NAME_MAX, BLIND_TEST_MESSAGES.nameTooLong),
    expires_at: z.iso.datetime({ offset: true }).nullish(),
    /** Kept only as a slow hash; never shown again. */
    password: linkPasswordSchema.optional(),
    /** 'Reveal after voting': a listener who has voted sees which version each letter was. */
    reveal_after_voting: z.boolean().optional(),
    /** One link per recipient, each with its own key and receipts; none: one link. */
    recipients: z
      .array(
        z.object({
          name: z
            .string({ error: BLIND_TEST_MESSAGES.recipientNameRequired })
            .trim()
            .min(1, BLIND_TEST_MESSAGES.recipientNameRequired)
            .max(BLIND_TEST_NAME_MAX),
          email: z.email().max(254).nullish(),
        }),
      )
      .max(BLIND_TEST_RECIPIENTS_MAX)
      .optional(),
  })
  .refine((body) => body.mode === 'preference' || body.version_ids.length === 2, {
    message: BLIND_TEST_MESSAGES.abxTwo,
    path: ['version_ids'],
  });

export const blindTestVersionSchema = z.object({
  id: z.string(),
  version_number: z.number().int(),
  branch_name: z.string(),
  /** 'Version 3 · main' */
  label: z.string(),
});

export const blindTestLinkSchema = z.object({
  id: z.string(),
  key: z.string(),
  url: z.string(),
  recipient: z.object({ name: z.string(), email: z.string().nullable() }).nullable(),
  /** Receipts: listeners who opened the link, who voted (or finished the ABX trials), when last. */
  opened: z.number().int(),
  voted: z.number().int(),
  last_activity_at: z.string().nullable(),
});

export const blindTestSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  mode: z.enum(BLIND_TEST_MODES),
  /** ABX trials per listener (null for a preference test). */
  trials: z.number().int().nullable(),
  reveal_after_voting: z.boolean(),
  /** 'preparing' while the loudness-matched audio is made; listeners wait until 'ready'. */
  status: z.enum(['preparing', 'ready', 'failed']),
  expires_at: z.string().nullable(),
  has_password: z.boolean(),
  revoked: z.boolean(),
  created_at: z.string(),
  versions: z.array(blindTestVersionSchema),
  /** The first link's address (the only one without recipients). */
  url: z.string(),
  links: z.array(blindTestLinkSchema),
});
export const blindTestsResponseSchema = z.object({ tests: z.array(blindTestSchema) });

const verdictSchema = z.object({
  correct: z.number().int(),
  total: z.number().int(),
  /** One-sided binomial: the chance of this many or more correct by guessing. */
  p_value: z.number().nullable(),
  /** '9 of 10 correct, p = 0.011: they can hear the difference' */
  verdict: z.string(),
  heard: z.boolean(),
});

export const blindTestResultsSchema = z.object({
  test: blindTestSchema,
  preference: z
    .object({
      votes: z.array(
        z.object({
          version: blindTestVersionSchema,
          count: z.number().int(),
          voters: z.array(
            z.object({ name: z.string(), note: z.string().nullable(), voted_at: z.string() }),
          ),
        }),
      ),
      total: z.number().int(),
      /** The version with the most votes, when one has more than every other. */
      winner_version_id: z.string().nullable(),
    })
    .nullable(),
  abx: verdictSchema
    .extend({
      listeners: z.array(verdictSchema.extend({ name: z.string(), finished: z.boolean() })),
    })
    .nullable(),
  /** The results in words. */
  summary: z.string(),
});

export const markBlindWinnerBodySchema = z.object({ version_id: z.string().min(1).max(64) });

// The listener's side: nothing here names a version before the listener has voted.

export const blindOptionSchema = z.object({
  /** Opaque, per listener: says nothing about the version behind it. */
  id: z.string(),
  letter: z.string(),
  audio_url: z.string(),
});

export const blindListenerPageSchema = z.object({
  name: z.string(),
  mode: z.enum(BLIND_TEST_MODES),
  /** The recipient's name on a per-recipient link (offered as the listener's name). */
  recipient_name: z.string().nullable(),
  /** 'preparing' until the audio is ready. */
  status: z.enum(['preparing', 'ready', 'failed']),
  /** Every option is matched to the same integrated loudness ('Levels matched'). */
  levels_matched: z.boolean(),
  /** Seconds, the same for every option. */
  duration: z.number().nullable(),
  listener_name: z.string().nullable(),
  /** Preference options, X / Y / Z / W in this listener's order. */
  options: z.array(blindOptionSchema),
  /** This listener's preference vote. */
  vote: z.object({ option_id: z.string(), note: z.string().nullable() }).nullable(),
  abx: z
    .object({
      a: blindOptionSchema,
      b: blindOptionSchema,
      trials: z.number().int(),
      answered: z.number().int(),
      /** The trial to answer now (null before the first is started and once all are answered). */
      trial: z.object({ number: z.number().int(), x: blindOptionSchema }).nullable(),
      /** Once every trial is answered. */
      result: verdictSchema.nullable(),
    })
    .nullable(),
  /** After voting, when the owner allowed it: which version each letter was. */
  reveal: z.array(z.object({ letter: z.string(), label: z.string() })).nullable(),
});

const listenerName = z
  .string({ error: BLIND_TEST_MESSAGES.listenerName })
  .trim()
  .min(1, BLIND_TEST_MESSAGES.listenerName)
  .max(100, BLIND_TEST_MESSAGES.listenerNameTooLong);

export const blindVoteBodySchema = z.object({
  name: listenerName,
  option_id: z.string().min(1).max(64),
  note: z.string().trim().max(BLIND_TEST_NOTE_MAX, BLIND_TEST_MESSAGES.noteTooLong).nullish(),
});
export const blindTrialStartBodySchema = z.object({ name: listenerName });
export const blindTrialAnswerBodySchema = z.object({
  trial: z.number().int().min(1),
  /** A's or B's option id. */
  answer: z.string().min(1).max(64),
});
export const unlockBlindTestBodySchema = unlockLinkBodySchema;

export type CreateBlindTestBody = z.infer<typeof createBlindTestBodySchema>;
export type BlindTest = z.infer<typeof blindTestSchema>;
export type BlindTestVersion = z.infer<typeof blindTestVersionSchema>;
export type BlindTestResults = z.infer<typeof blindTestResultsSchema>;
export type BlindListenerPage = z.infer<typeof blindListenerPageSchema>;
export type BlindOption = z.infer<typeof blindOptionSchema>;
