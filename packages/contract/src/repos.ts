import { z } from 'zod';
import { roleSchema } from './members';
import { reviewStatusSchema } from './review';

// The "audio git" model: repositories with branches and commits,
// legacy patches shown as commits, and bounces (audio published onto a commit).
// Entities are snake_case (as the desktop app reads them); publish payloads are camelCase.

export const REPO_MESSAGES = {
  repoNameRequired: 'Repository name is required',
  repoExists: 'You already have a repository with this name',
  branchNameRequired: 'Branch name is required',
  branchNameInvalid:
    'Branch names may use letters, digits, dots, dashes, underscores and slashes (no spaces)',
  branchExists: 'A branch with this name already exists in this repository',
  branchNotFound: 'Branch not found',
  commitMessageRequired: 'Please enter a commit message',
  commitNotFound: 'Commit not found',
  parentNotOnBranch: 'The parent commit is not the head of this branch; pull and try again',
  shaInvalid: 'A commit sha is 40 or 64 hexadecimal characters',
  shaExists: 'A commit with this sha already exists in this repository',
  filenameRequired: 'A file name is required',
  titleRequired: 'A title is required',
  tokenMissing: 'The x-upsert-token header is required',
  tokenInvalid: 'This upload token is not valid for this upload',
  tokenExpired: 'This upload link has expired. Start the publish again.',
  tokenUsed: 'This upload token has already been used',
  uploadNotFound: 'No uploaded file was found for this publish. Upload the file first.',
  sizeMismatch: 'The uploaded file size does not match the size given',
  coverInvalid: 'The cover must be a PNG, JPEG or WebP image',
  coverTooLarge: 'The cover image must be 5 MB or smaller',
  coverRequired: 'Please choose an image',
} as const;

/** Upload tokens for publishing live this long. */
export const PUBLISH_TOKEN_TTL_MS = 15 * 60 * 1000;
export const MAX_COVER_BYTES = 5 * 1024 * 1024;

export const loudnessSchema = z.object({
  integrated_lufs: z.number().nullable(),
  loudness_range: z.number().nullable(),
  true_peak_dbfs: z.number().nullable(),
});
export type Loudness = z.infer<typeof loudnessSchema>;

/** Up to 1000 min/max points (values -1..1) over the whole bounce, and its length in seconds. */
export const bounceWaveformSchema = z.object({
  min: z.array(z.number()),
  max: z.array(z.number()),
  duration: z.number(),
});
export type BounceWaveform = z.infer<typeof bounceWaveformSchema>;

export const repositorySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Same-origin URL of the cover image (changes when the cover changes), or null. */
  cover_url: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Newest of: repository change, commit, patch, bounce. */
  last_activity_at: z.string(),
  /** Commits plus legacy patches. */
  patch_count: z.number(),
  bounce_count: z.number(),
  default_branch: z.string().nullable(),
  /** Desktop deep link that opens this repository in the desktop app and pulls it. */
  pull_url: z.string(),
  /** The caller's role on this repository. */
  role: roleSchema,
});
export type Repository = z.infer<typeof repositorySchema>;

export const repoBranchSchema = z.object({
  name: z.string(),
  is_default: z.boolean(),
  head_sha: z.string().nullable(),
  commit_count: z.number(),
  bounce_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RepoBranch = z.infer<typeof repoBranchSchema>;

export const patchSchema = z.object({
  patch_hash: z.string(),
  message: z.string().nullable(),
  timestamp: z.string(),
});
export type Patch = z.infer<typeof patchSchema>;

export const timelineCommitSchema = z.object({
  sha: z.string(),
  message: z.string().nullable(),
  parent_sha: z.string().nullable(),
  branch: z.string(),
  created_at: z.string(),
  has_bounce: z.boolean(),
});
export type TimelineCommit = z.infer<typeof timelineCommitSchema>;

export const bounceStatusSchema = z.enum(['processing', 'completed', 'failed']);

export const bounceSchema = z.object({
  id: z.string(),
  repo_id: z.string(),
  repo_name: z.string(),
  branch: z.string(),
  commit_sha: z.string(),
  title: z.string(),
  filename: z.string(),
  mime: z.string(),
  size: z.number(),
  /** Seconds (from ffprobe at publish time). */
  duration: z.number().nullable(),
  created_at: z.string(),
  status: bounceStatusSchema,
  error: z.string().nullable(),
  waveform_json: bounceWaveformSchema.nullable(),
  loudness: loudnessSchema.nullable(),
  /** Same-origin stream URL; add `?quality=high|standard` for a rendition. */
  stream_url: z.string(),
});
export type Bounce = z.infer<typeof bounceSchema>;

/** An item of GET /api/bounces/recent: a repository bounce, or (with all=true) a legacy version. */
export const recentBounceSchema = z.object({
  kind: z.enum(['bounce', 'version']),
  id: z.string(),
  title: z.string(),
  created_at: z.string(),
  duration: z.number().nullable(),
  stream_url: z.string(),
  waveform_json: bounceWaveformSchema.nullable(),
  repo_id: z.string().nullable(),
  repo_name: z.string().nullable(),
  branch: z.string().nullable(),
  commit_sha: z.string().nullable(),
  cover_url: z.string().nullable(),
  project_id: z.string().nullable(),
  project_name: z.string().nullable(),
  version_number: z.number().nullable(),
  /** A version's review status (null for a repository bounce). */
  review_status: reviewStatusSchema.nullable(),
});
export type RecentBounce = z.infer<typeof recentBounceSchema>;

// ---- Response envelopes (the desktop app reads `data` or `repo`) ----

export const repositoryListResponseSchema = z.object({ data: z.array(repositorySchema) });
export const repositoryDataResponseSchema = z.object({ data: repositorySchema });
export const repoResponseSchema = z.object({ repo: repositorySchema });
export const patchesResponseSchema = z.object({ data: z.array(patchSchema), total: z.number() });
export const branchesResponseSchema = z.object({ branches: z.array(repoBranchSchema) });
export const commitsResponseSchema = z.object({ commits: z.array(timelineCommitSchema) });
export const bouncesResponseSchema = z.object({ bounces: z.array(bounceSchema) });
export const recentBouncesResponseSchema = z.object({ bounces: z.array(recentBounceSchema) });
export const coverResponseSchema = z.object({ cover_url: z.string() });

// ---- Request bodies ----

export const BRANCH_NAME_PATTERN = /^[A-Za-z0-9._/-]+$/;
export const branchNameSchema = z
  .string({ error: REPO_MESSAGES.branchNameRequired })
  .trim()
  .min(1, REPO_MESSAGES.branchNameRequired)
  .max(100)
  .regex(BRANCH_NAME_PATTERN, REPO_MESSAGES.branchNameInvalid);

export const shaSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^([0-9a-f]{40}|[0-9a-f]{64})$/, REPO_MESSAGES.shaInvalid);

export const createRepoBodySchema = z.object({
  name: z
    .string({ error: REPO_MESSAGES.repoNameRequired })
    .trim()
    .min(1, REPO_MESSAGES.repoNameRequired)
    .max(200),
});

export const createRepoBranchBodySchema = z.object({
  name: branchNameSchema,
  /** Branch to start from (its head becomes the new branch's head); none starts empty. */
  from: z.string().trim().min(1).max(100).optional(),
});

export const createCommitBodySchema = z.object({
  branch: branchNameSchema,
  message: z
    .string({ error: REPO_MESSAGES.commitMessageRequired })
    .trim()
    .min(1, REPO_MESSAGES.commitMessageRequired)
    .max(5000),
  /** The desktop app's own sha; generated when absent. */
  sha: shaSchema.optional(),
  /** Must equal the branch head when given (a stale client is refused with 409). */
  parent: shaSchema.nullable().optional(),
});

export const createPatchBodySchema = z.object({
  message: z.string().trim().max(5000).nullable().optional(),
  patch_hash: shaSchema.optional(),
});

export const publishBodySchema = z.object({
  repo_id: z.string().min(1).max(64),
  branch: branchNameSchema,
  filename: z
    .string({ error: REPO_MESSAGES.filenameRequired })
    .trim()
    .min(1, REPO_MESSAGES.filenameRequired)
    .max(255),
  content_type: z.string().trim().max(200).optional(),
  /** Commit to attach the bounce to; the branch head when absent. */
  commit_sha: shaSchema.optional(),
  /** Declared size in bytes, when known: refused up front if over the limit. */
  size: z.number().int().nonnegative().optional(),
});

export const publishResponseSchema = z.object({
  upload_id: z.string(),
  upload_url: z.string(),
  upload_token: z.string(),
  expires_at: z.string(),
  max_bytes: z.number(),
});
export type PublishResponse = z.infer<typeof publishResponseSchema>;

export const uploadPutResponseSchema = z.object({ upload_id: z.string(), size: z.number() });

export const completeBodySchema = z.object({
  repo_id: z.string().min(1).max(64),
  branch: branchNameSchema,
  title: z.string().trim().max(200).optional(),
  filename: z
    .string({ error: REPO_MESSAGES.filenameRequired })
    .trim()
    .min(1, REPO_MESSAGES.filenameRequired)
    .max(255),
  mime: z.string().trim().max(200).optional(),
  size: z.number().int().nonnegative().optional(),
  /** Which publish this completes; the newest uploaded one for repo, branch and file name when absent. */
  upload_id: z.string().min(1).max(64).optional(),
});

export const completeResponseSchema = z.object({ bounce: bounceSchema });

export const recentQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  all: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});
