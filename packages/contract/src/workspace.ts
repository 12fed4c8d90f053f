import { z } from 'zod';

/** The dashboard's figures. */
export const statsResponseSchema = z.object({
  projects: z.number(),
  tracks: z.number(),
  last_update: z.string().nullable(),
  versions_last_month: z.number(),
  /** Events in the last 30 days on the projects and repositories you can see ('+N in the last month'). */
  activity_last_month: z.number(),
});
export type StatsResponse = z.infer<typeof statsResponseSchema>;

export const searchQuerySchema = z.object({
  q: z.string().trim().min(1, 'Search text is required').max(200),
});

/** What a search found among the caller's projects, branches and versions. */
export const searchResponseSchema = z.object({
  projects: z.array(
    z.object({ id: z.string(), name: z.string(), description: z.string().nullable() }),
  ),
  branches: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      project_id: z.string(),
      project_name: z.string(),
    }),
  ),
  versions: z.array(
    z.object({
      id: z.string(),
      project_id: z.string(),
      branch_id: z.string(),
      version_number: z.number(),
      message: z.string().nullable(),
      tags: z.array(z.string()),
      created_at: z.string(),
      project_name: z.string(),
      branch_name: z.string(),
    }),
  ),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

const componentStatus = z.enum(['ok', 'error']);

/** The server's state as the instance admins' debug page shows it. */
export const debugReportSchema = z.object({
  database: z.object({
    dialect: z.enum(['sqlite', 'postgres']),
    migrations: z.array(z.string()),
    latest: z.string().nullable(),
  }),
  storage: z.object({ kind: z.string(), status: componentStatus, detail: z.string().optional() }),
  ffmpeg: z.object({ status: componentStatus, version: z.string().nullable(), source: z.string() }),
  jobs: z.object({
    queue: z.string(),
    queued: z.number(),
    active: z.number(),
    completed: z.number(),
    failed: z.number(),
  }),
});
export type DebugReport = z.infer<typeof debugReportSchema>;

/** How long inserting and deleting a test project took. */
export const roundTripResponseSchema = z.object({
  project_id: z.string(),
  insert_ms: z.number(),
  delete_ms: z.number(),
});
