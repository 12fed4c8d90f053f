import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { JobRef } from './registry';

export interface EnqueueOptions {
  /** Enqueue inside this transaction, so the job exists only if the transaction commits. */
  executor?: Kysely<Database>;
  /** Do not start the job before this many milliseconds have passed. */
  delayMs?: number;
}

/** One interface over the embedded queue (rows in our database) and pg-boss. */
export interface JobQueue {
  readonly kind: 'embedded' | 'pgboss';
  /** Prepares the queue and fails when a waiting job's name has no handler. */
  open(): Promise<void>;
  enqueue<P>(job: JobRef<P>, payload: P, options?: EnqueueOptions): Promise<string>;
  /** Jobs were committed in a transaction: a local idle worker should look now, not at its next poll. */
  notify(): void;
  /** Starts running jobs in this process. */
  startWorking(): Promise<void>;
  /**
   * Stops taking jobs, gives running ones `graceMs` to finish, hands the rest back to the queue
   * uncounted, then releases resources. Calling it again waits for the same close.
   */
  close(graceMs?: number): Promise<void>;
}

/** Delay before retry number `retry` (1-based): base, then doubling, capped at an hour. */
export function backoffMs(baseSeconds: number, retry: number): number {
  return Math.min(baseSeconds * 1000 * 2 ** Math.max(retry - 1, 0), 60 * 60 * 1000);
}
