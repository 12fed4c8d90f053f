import { z } from 'zod';

/** A Public project's read-only page, for anyone (standard quality only, no download, no comments). */
export const publicVersionSchema = z.object({
  id: z.string(),
  version_number: z.number(),
  message: z.string().nullable(),
  created_at: z.string(),
  status: z.enum(['processing', 'completed', 'failed']),
  waveform_data: z
    .object({ peaks: z.array(z.number()), duration: z.number().nullable() })
    .nullable(),
});
export type PublicVersion = z.infer<typeof publicVersionSchema>;

export const publicProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** The owner's display name. */
  owner_name: z.string(),
  /** false: the page carries `noindex`. */
  listed: z.boolean(),
  updated_at: z.string(),
  branches: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      is_default: z.boolean(),
      versions: z.array(publicVersionSchema),
    }),
  ),
});
export type PublicProject = z.infer<typeof publicProjectSchema>;
