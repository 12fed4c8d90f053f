import type { DatabaseHandle } from '../db/database';
import type { EventBus } from './bus';
import { EmbeddedEventBus } from './embedded-bus';
import { PgEventBus, type PgEventBusOptions } from './pg-bus';

/**
 * The one place that picks the live-event bus, by the database: PostgreSQL (maybe many `serve`
 * processes) → LISTEN/NOTIFY; SQLite (one process) → the in-process emitter.
 */
export async function createEventBus(
  database: Pick<DatabaseHandle, 'db' | 'dialect'>,
  postgres: Omit<PgEventBusOptions, 'connectionString'> & {
    connectionString?: string;
    /** false: this process only publishes (a worker), so no listening connection is opened. */
    listen?: boolean;
  },
): Promise<EventBus> {
  if (database.dialect === 'postgres') {
    const { listen = true, connectionString, ...options } = postgres;
    if (!connectionString) throw new Error('live events: no PostgreSQL URL');
    const bus = new PgEventBus({ ...options, connectionString });
    if (listen) await bus.open();
    return bus;
  }
  return new EmbeddedEventBus(database.db);
}
