import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../db/schema';
import { LocalSubscribers, type EventBus, type LiveEvent } from './bus';

/**
 * The channel of one Takes installation: keyed by the schema it lives in, so two installations
 * (or two tests) sharing a PostgreSQL database never hear each other.
 */
const CHANNEL_SQL = sql<string>`'takes_events_' || left(md5(current_schema()), 16)`;

export interface PgEventBusOptions {
  connectionString: string;
  /** The schema Takes lives in, when not the connection's default (tests). */
  searchPath?: string;
  logger?: { warn(obj: object, msg?: string): void; info(obj: object, msg?: string): void };
  /** First wait before reconnecting a dropped listener; doubles up to 5 s. */
  reconnectMs?: number;
}

/**
 * Live events across every `serve` process through LISTEN/NOTIFY. `publish(trx, event)` runs
 * `pg_notify` on the given executor: inside a transaction PostgreSQL delivers it only when the
 * transaction commits, and never for a rollback. One dedicated connection per process LISTENs
 * and hands each notification to this process's subscribers; if it drops, it reconnects (with
 * backoff) and listens again.
 */
export class PgEventBus implements EventBus {
  private readonly subscribers = new LocalSubscribers();
  private client: pg.Client | null = null;
  private channel: string | null = null;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private pid: number | null = null;

  constructor(private readonly options: PgEventBusOptions) {}

  /** Connects the listener; start-up fails if the database cannot be reached. */
  async open(): Promise<void> {
    await this.connect();
  }

  /** Whether the listener is connected and listening (for tests and health). */
  get listening(): boolean {
    return this.client !== null;
  }

  /** The listener connection's server process id (tests end it to check reconnection). */
  get listenerPid(): number | null {
    return this.pid;
  }

  async publish(db: Kysely<Database>, event: LiveEvent): Promise<void> {
    await sql`select pg_notify(${CHANNEL_SQL}, ${JSON.stringify(event)})`.execute(db);
  }

  /** How many open streams listen in this process (tests, debugging). */
  get subscriberCount(): number {
    return this.subscribers.count;
  }

  subscribe(listener: (event: LiveEvent) => void): () => void {
    return this.subscribers.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const client = this.client;
    this.client = null;
    this.subscribers.clear();
    if (client) {
      client.removeAllListeners();
      client.on('error', () => {});
      await client.end().catch(() => {});
    }
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      options: this.options.searchPath ? `-c search_path=${this.options.searchPath}` : undefined,
    });
    let dropped = false;
    const onDrop = (error?: Error) => {
      if (dropped) return;
      dropped = true;
      if (this.client === client) {
        this.client = null;
        this.pid = null;
      }
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      if (!this.closed) {
        this.options.logger?.warn(
          { err: error?.message },
          'live events: the LISTEN connection dropped; reconnecting',
        );
        this.scheduleReconnect();
      }
    };
    client.on('error', onDrop);
    client.on('end', () => onDrop());
    client.on('notification', (message) => {
      if (message.channel !== this.channel || !message.payload) return;
      let event: LiveEvent;
      try {
        event = JSON.parse(message.payload) as LiveEvent;
      } catch {
        return;
      }
      this.subscribers.emit(event);
    });
    try {
      await client.connect();
      const { rows } = await client.query<{ channel: string; pid: number }>(
        `select 'takes_events_' || left(md5(current_schema()), 16) as channel, pg_backend_pid() as pid`,
      );
      const channel = rows[0]?.channel;
      if (!channel) throw new Error('live events: no schema to listen in');
      await client.query(`listen "${channel}"`);
      if (this.closed || dropped) {
        await client.end().catch(() => {});
        return;
      }
      this.channel = channel;
      this.client = client;
      this.pid = rows[0]?.pid ?? null;
      if (this.failures > 0) this.options.logger?.info({}, 'live events: listening again');
      this.failures = 0;
    } catch (error) {
      client.removeAllListeners();
      client.on('error', () => {});
      await client.end().catch(() => {});
      throw error;
    }
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const base = this.options.reconnectMs ?? 250;
    const wait = Math.min(base * 2 ** this.failures, 5000);
    this.failures += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect().catch((error: unknown) => {
        this.options.logger?.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'live events: could not listen yet',
        );
        this.scheduleReconnect();
      });
    }, wait);
    this.reconnectTimer.unref();
  }
}
