import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import type { ActivityKind } from '@takes/contract';
import type { Database } from '../db/schema';

/** What the live-update stream tells a browser tab: which of its queries to refresh. */
export type ActivityLiveEvent = {
  type: 'activity';
  activityId: string;
  kind: ActivityKind;
  projectId: string | null;
  repoId: string | null;
  /** The version it concerns (comments, processing, uploads), for version and share pages. */
  versionId: string | null;
  /** The user whose notifications changed, when it is about them. */
  userIds?: string[];
};

/** An admin disabled the account: every stream of that user ends at once, in every process. */
export type AccountDisabledEvent = { type: 'account.disabled'; userId: string };

/** What goes over the bus: an activity's query hints, or an account's end. */
export type LiveEvent = ActivityLiveEvent | AccountDisabledEvent;

/**
 * Fans live events out to every `serve` process: on PostgreSQL through LISTEN/NOTIFY (a NOTIFY
 * sent inside a transaction is delivered only when it commits, never for a rollback), embedded
 * with an in-process emitter that emits once the change is committed.
 */
export interface EventBus {
  publish(db: Kysely<Database>, event: LiveEvent): Promise<void>;
  subscribe(listener: (event: LiveEvent) => void): () => void;
  close(): Promise<void>;
}

/** The listeners of one process's live events; one failing listener does not stop the others. */
export class LocalSubscribers {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  get count(): number {
    return this.emitter.listenerCount('event');
  }

  add(listener: (event: LiveEvent) => void): () => void {
    const safe = (event: LiveEvent) => {
      try {
        listener(event);
      } catch {
        // One subscriber's failure is not another's.
      }
    };
    this.emitter.on('event', safe);
    return () => this.emitter.off('event', safe);
  }

  emit(event: LiveEvent): void {
    this.emitter.emit('event', event);
  }

  clear(): void {
    this.emitter.removeAllListeners();
  }
}
