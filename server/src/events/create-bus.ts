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
  postgres: Omit<PgEventBusOptions, 'connectionString'> & { connectionString?: string },
): Promise<EventBus> {
  if (database.dialect === 'postgres') {
    if (!postgres.connectionString) throw new Error('live events: no PostgreSQL URL');
    const bus = new PgEventBus({ ...postgres, connectionString: postgres.connectionString });
    await bus.open();
    return bus;
  }
  return new EmbeddedEventBus(database.db);
}
