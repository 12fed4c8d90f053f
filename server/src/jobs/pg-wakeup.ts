import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../db/schema';
import type { JobLogger } from './registry';

/**
 * The channel that says "a job was enqueued" for one pg-boss schema: every process enqueuing into
 * the same job table talks on it, and no other installation hears it.
 */
export function jobChannel(pgbossSchema: string): string {
  return `takes_jobs_${createHash('md5').update(pgbossSchema).digest('hex').slice(0, 16)}`;
}

/**
 * Issued on the executor that enqueued the job: inside a transaction PostgreSQL delivers it only
 * when the transaction commits (never for a rollback), so a worker woken by it finds the job.
 */
export async function announceJob(db: Kysely<Database>, channel: string): Promise<void> {
  await sql`select pg_notify(${channel}, '')`.execute(db);
}

/**
 * One LISTEN connection per worker process that calls `onJob` whenever any process enqueues, so an
 * idle worker starts a job at once instead of at its next poll. The poll stays as the fallback:
 * while the connection is down (it reconnects with backoff) jobs are still found, only later.
 */
export class JobWakeup {
  private client: pg.Client | null = null;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private failures = 0;

  constructor(
    private readonly options: {
      connectionString: string;
      channel: string;
      onJob: () => void;
      logger: JobLogger;
      /** First wait before reconnecting a dropped listener; doubles up to 5 s. */
      reconnectMs?: number;
    },
  ) {}

  get listening(): boolean {
    return this.client !== null;
  }

  /** Starts listening; if the database cannot be reached now, keeps trying in the background. */
  async open(): Promise<void> {
    try {
      await this.connect();
    } catch (error) {
      this.options.logger.warn({ err: error }, 'job wake-up: could not listen yet');
      this.scheduleReconnect();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => {});
      await client.end().catch(() => {});
    }
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString });
    let dropped = false;
    const onDrop = (error?: Error) => {
      if (dropped) return;
      dropped = true;
      if (this.client === client) this.client = null;
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      if (!this.closed) {
        this.options.logger.warn(
          { err: error?.message },
          'job wake-up: the LISTEN connection dropped; reconnecting',
        );
        this.scheduleReconnect();
      }
    };
    client.on('error', onDrop);
    client.on('end', () => onDrop());
    client.on('notification', (message) => {
      if (message.channel === this.options.channel) this.options.onJob();
    });
    try {
      await client.connect();
      await client.query(`listen "${this.options.channel}"`);
    } catch (error) {
      client.removeAllListeners();
      client.on('error', () => {});
      await client.end().catch(() => {});
      throw error;
    }
    if (this.closed || dropped) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.failures = 0;
    // Jobs enqueued while nobody listened are found by this look, not only by the next poll.
    this.options.onJob();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const wait = Math.min((this.options.reconnectMs ?? 250) * 2 ** this.failures, 5000);
    this.failures += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect().catch((error: unknown) => {
        this.options.logger.warn({ err: error }, 'job wake-up: could not listen yet');
        this.scheduleReconnect();
      });
    }, wait);
    this.reconnectTimer.unref();
  }
}
