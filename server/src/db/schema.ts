import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Timestamps are ISO-8601 UTC strings on both dialects
 * (text on SQLite, timestamptz on PostgreSQL, read back as ISO strings).
 */
export interface JobsTable {
  id: string;
  name: string;
  payload: string;
  state: JobState;
  attempts: Generated<number>;
  max_attempts: number;
  retry_delay_ms: number;
  run_at: string;
  lease_expires_at: string | null;
  lock_token: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export type JobState = 'queued' | 'active' | 'completed' | 'failed';

export interface Database {
  jobs: JobsTable;
}
