import { z } from 'zod';

/**
 * 'Export my data' (Settings): a zip of everything a person owns, built in the background and
 * downloadable for a day. "The practical side of 'your music stays yours'".
 */
export const DATA_EXPORT_STATES = ['queued', 'running', 'ready', 'failed', 'expired'] as const;
export const dataExportStateSchema = z.enum(DATA_EXPORT_STATES);
export type DataExportState = z.infer<typeof dataExportStateSchema>;

/** How long a finished export can be downloaded. */
export const DATA_EXPORT_TTL_HOURS = 24;

/** The words people see. */
export const DATA_EXPORT_MESSAGES = {
  alreadyRunning:
    'An export is already in progress. Wait for it to finish before starting another.',
  expired: 'This export has expired. Start a new export to download your data.',
  notReady: 'This export is not ready yet.',
  notFound: 'Export not found',
  failed: 'The export could not be completed. Please try again.',
} as const;

export const dataExportSchema = z.object({
  id: z.string(),
  state: dataExportStateSchema,
  /** 0..100. */
  progress: z.number().int().min(0).max(100),
  /** Bytes of the zip, once ready. */
  size: z.number().int().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  ready_at: z.string().nullable(),
  /** Until when it can be downloaded (set when ready). */
  expires_at: z.string().nullable(),
});
export type DataExport = z.infer<typeof dataExportSchema>;

/** The latest export of the caller, or null when they never asked for one. */
export const latestDataExportSchema = z.object({ export: dataExportSchema.nullable() });
export type LatestDataExport = z.infer<typeof latestDataExportSchema>;
