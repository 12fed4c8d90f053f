import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { LocalSubscribers, type EventBus, type LiveEvent } from './bus';

/**
 * The in-process bus of a single process (SQLite). An event is emitted only once the change it
 * describes is committed, and never for a rollback: `publish` (called inside the recording
 * transaction) only schedules a look-up of the event's activity row (or, for a disabled account,
 * its disabled mark) on the root database. On
 * SQLite the driver has one connection, so that look-up waits until the transaction has
 * committed or rolled back, and then finds the row, or does not.
 */
export class EmbeddedEventBus implements EventBus {
  private readonly subscribers = new LocalSubscribers();
  private readonly pending = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly db: Kysely<Database>) {}

  publish(_db: Kysely<Database>, event: LiveEvent): Promise<void> {
    if (this.closed) return Promise.resolve();
    // Not awaited: the transaction that called us must finish before the look-up can run.
    const check = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.committed(event))
      .then(
        (committed) => {
          if (committed && !this.closed) this.subscribers.emit(event);
        },
        () => {
          // The database is closing: nobody is listening any more.
        },
      )
      .finally(() => this.pending.delete(check));
    this.pending.add(check);
    return Promise.resolve();
  }

  /** How many open streams listen in this process (tests, debugging). */
  get subscriberCount(): number {
    return this.subscribers.count;
  }

  subscribe(listener: (event: LiveEvent) => void): () => void {
    return this.subscribers.add(listener);
  }

  async close(): Promise<void> {
    await Promise.all([...this.pending]);
    this.closed = true;
    this.subscribers.clear();
  }

  private async committed(event: LiveEvent): Promise<boolean> {
    if (event.type === 'account.disabled') {
      const controls = await this.db
        .selectFrom('user_controls')
        .select('user_id')
        .where('user_id', '=', event.userId)
        .where('disabled_at', 'is not', null)
        .executeTakeFirst();
      return controls !== undefined;
    }
    const row = await this.db
      .selectFrom('activity')
      .select('id')
      .where('id', '=', event.activityId)
      .executeTakeFirst();
    return row !== undefined;
  }
}
