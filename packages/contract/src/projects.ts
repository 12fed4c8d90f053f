import { z } from 'zod';
import { ownerSummarySchema, roleSchema } from './members';
import { PROJECT_MESSAGES, PROJECTS_PAGE_MAX } from './project-limits';
import { reviewStatusSchema } from './review';
import { AUDIO_QUALITIES } from './audio-qualities';

export * from './project-limits';

// Entity fields are snake_case (id, project_id, is_private, created_at…): the desktop app reads them so.

export const tagsSchema = z
  .array(z.string())
  .max(50, 'At most 50 tags')
  .transform((tags) => [...new Set(tags.map((t) => t.trim()).filter((t) => t.length > 0))]);

export const branchSummarySchema = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  is_default: z.boolean(),
  version_count: z.number(),
});
export type BranchSummary = z.infer<typeof branchSummarySchema>;

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  is_private: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  owner_id: z.string(),
  /** A public project's page may be indexed by search engines ('List in search engines'). */
  listed: z.boolean(),
  /** The caller's role on this project. */
  role: roleSchema,
  branches: z.array(branchSummarySchema),
});
export type Project = z.infer<typeof projectSchema>;

/** 'Shared with you': a project someone else owns, with its owner. */
export const sharedProjectSchema = projectSchema.extend({ owner: ownerSummarySchema });
export type SharedProject = z.infer<typeof sharedProjectSchema>;

export const processingStatusSchema = z.enum(['processing', 'completed', 'failed']);

export const versionSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  branch_id: z.string(),
  version_number: z.number(),
  message: z.string().nullable(),
  tags: z.array(z.string()),
  created_at: z.string(),
  status: processingStatusSchema,
  error: z.string().nullable(),
  file_path: z.string().nullable(),
  original_file_url: z.string().nullable(),
  stream_file_url: z.string().nullable(),
  waveform_data: z
    .object({ peaks: z.array(z.number()), duration: z.number().nullable() })
    .nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  loudness: z
    .object({
      integrated_lufs: z.number().nullable(),
      loudness_range: z.number().nullable(),
      true_peak_dbfs: z.number().nullable(),
    })
    .nullable(),
  /** 'In review' (default), 'Changes requested' or 'Approved'. */
  review_status: reviewStatusSchema,
  /** The original's stored size in bytes (null for a plain URL). */
  file_size: z.number().nullable(),
});
export type Version = z.infer<typeof versionSchema>;

export const versionWithProjectSchema = versionSchema.extend({
  project: projectSchema.omit({ branches: true }),
});

/** One side of a compare: the version with its branch's name. */
export const compareSideSchema = versionSchema.extend({ branch_name: z.string() });

/** GET /api/projects/:projectId/compare?a=&b=: two versions of one project, side by side. */
export const compareResponseSchema = z.object({
  project: projectSchema.omit({ branches: true }),
  a: compareSideSchema,
  b: compareSideSchema,
});
export type CompareResponse = z.infer<typeof compareResponseSchema>;

export const branchWithVersionsSchema = branchSummarySchema.extend({
  versions: z.array(versionSchema),
});
export type BranchWithVersions = z.infer<typeof branchWithVersionsSchema>;

export const createProjectBodySchema = z.object({
  name: z
    .string({ error: PROJECT_MESSAGES.projectNameRequired })
    .trim()
    .min(1, PROJECT_MESSAGES.projectNameRequired)
    .max(200),
  description: z.string().trim().max(2000).nullish(),
  is_private: z.boolean().default(true),
});

export const updateProjectBodySchema = z.object({
  name: z.string().trim().min(1, PROJECT_MESSAGES.projectNameRequired).max(200).optional(),
  description: z.string().trim().max(2000).nullable().optional(),
  /** 'List in search engines' (owner only; meaningful while the project is Public). */
  listed: z.boolean().optional(),
});

/** 'Your Projects' a page at a time: `limit` projects after the project `after` (its id). */
export const listProjectsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PROJECTS_PAGE_MAX).optional(),
  after: z.string().min(1).max(64).optional(),
});

export const branchNameBodySchema = z.object({
  name: z
    .string({ error: PROJECT_MESSAGES.branchNameRequired })
    .trim()
    .min(1, PROJECT_MESSAGES.branchNameRequired)
    .max(100),
});

export const recentVersionSchema = z.object({
  id: z.string(),
  title: z.string(),
  message: z.string().nullable(),
  created_at: z.string(),
  project_id: z.string(),
  project_name: z.string(),
});

export const createVersionBodySchema = z.object({
  project_id: z.string().min(1, PROJECT_MESSAGES.projectRequired),
  branch_id: z.string().min(1, PROJECT_MESSAGES.branchRequired),
  message: z.string().trim().max(2000).default('New version'),
  file_url: z.string().trim().min(1, 'file_url is required').max(2000),
  tags: tagsSchema.optional(),
});

export const qualityDetailSchema = z.object({ file_size: z.number(), format: z.string() });
export const qualitiesSchema = z.object({
  available: z.array(z.enum(AUDIO_QUALITIES)),
  qualities: z.object({
    original: qualityDetailSchema.optional(),
    lossless: qualityDetailSchema.optional(),
    high: qualityDetailSchema.optional(),
    standard: qualityDetailSchema.optional(),
  }),
});

const qualityProgressEntry = z.object({ available: z.boolean(), file_size: z.number().nullable() });
export const processingResponseSchema = z.object({
  status: processingStatusSchema,
  progress_percentage: z.number(),
  has_metadata: z.boolean(),
  has_waveform: z.boolean(),
  processing_complete: z.boolean(),
  error: z.string().nullable(),
  quality_progress: z.object({
    original: qualityProgressEntry.extend({ format: z.string().nullable() }),
    /** The FLAC of a lossless original: absent while not made, or for a lossy original. */
    lossless: qualityProgressEntry.optional(),
    high: qualityProgressEntry,
    standard: qualityProgressEntry,
  }),
});
export type ProcessingResponse = z.infer<typeof processingResponseSchema>;

export const uploadResponseSchema = z.object({
  version_id: z.string(),
  project_id: z.string(),
  branch_id: z.string(),
  file_url: z.string(),
  file: z.object({ url: z.string() }),
  waveform: z.object({ peaks: z.array(z.number()) }).nullable(),
  metadata: z.record(z.string(), z.unknown()),
});

/** A version's detailed peaks: min and max per bucket, interleaved, peaks_per_second buckets a second. */
export const peaksFileSchema = z.object({
  version: z.literal(1),
  peaks_per_second: z.number(),
  min_max: z.array(z.number()),
});
export type PeaksFile = z.infer<typeof peaksFileSchema>;
