import { randomUUID } from 'node:crypto';
import type { ActivityKind } from '@takes/contract';
import type { Clock } from '../../clock';
import type { ActivityTable } from '../../db/schema';
import type { ActivityRepo, Executor, VersionFacts } from './activity.repo';

/** Who did it: a signed-in person, or a visitor through a share link (their self-entered name). */
export type Actor = { userId: string; name?: string } | { visitorName: string };

/** One meaningful event, as a service reports it. */
export interface ActivityEvent {
  kind: ActivityKind;
  /** Exactly one of the two. */
  projectId?: string;
  repoId?: string;
  actor: Actor;
  /** The object it is about (version, comment, link, branch, member, commit, bounce). */
  targetId?: string;
  /** What a readable line needs later, as it was then (version number, timestamp, names…). */
  data?: Record<string, unknown>;
}

/**
 * Called with each recorded row inside the same transaction (notifications fan out from it; the
 * live-update bus announces it, on PostgreSQL with a NOTIFY that is delivered only on commit).
 */
export type ActivityListener = (db: Executor, row: ActivityTable) => Promise<void>;

/**
 * Records every meaningful event exactly once, in the transaction of the change it describes:
 * services call `record(trx, event)` inside the transaction that makes the change, so a change
 * that fails or rolls back leaves no activity behind (and no notification, and no live event).
 */
export class ActivityLog {
  private readonly listeners: ActivityListener[] = [];

  constructor(private readonly deps: { repo: ActivityRepo; clock: Clock }) {}

  /** Adds a listener run for every recorded row, in order, inside the recording transaction. */
  onRecord(listener: ActivityListener): void {
    this.listeners.push(listener);
  }

  /**
   * A version's number, branch and project as they are now (read inside the caller's
   * transaction), for an event's `data`; throws when the version is gone.
   */
  async versionFacts(db: Executor, versionId: string): Promise<VersionFacts> {
    const facts = await this.deps.repo.versionFacts(db, versionId);
    if (!facts) throw new Error(`activity: version ${versionId} not found`);
    return facts;
  }

  /** What a person is called now (profile display name, else account name), for `data`. */
  personName(db: Executor, userId: string): Promise<string | null> {
    return this.deps.repo.personName(db, userId);
  }

  /** Records an event about a version (read in the transaction), naming it and its branch. */
  async recordForVersion(
    db: Executor,
    versionId: string,
    event: Omit<ActivityEvent, 'projectId' | 'repoId' | 'targetId'> & { targetId?: string },
  ): Promise<ActivityTable> {
    const facts = await this.versionFacts(db, versionId);
    return this.record(db, {
      ...event,
      projectId: facts.project_id,
      targetId: event.targetId ?? versionId,
      data: { ...versionData(facts), ...event.data },
    });
  }

  async record(db: Executor, event: ActivityEvent): Promise<ActivityTable> {
    if ((event.projectId === undefined) === (event.repoId === undefined))
      throw new Error(`activity ${event.kind}: give exactly one of projectId and repoId`);
    const row: ActivityTable = {
      id: randomUUID(),
      project_id: event.projectId ?? null,
      repo_id: event.repoId ?? null,
      actor_id: 'userId' in event.actor ? event.actor.userId : null,
      // A copy of the name then (kept if the account goes; the list shows the current name).
      actor_name:
        'visitorName' in event.actor
          ? event.actor.visitorName
          : (event.actor.name ?? (await this.deps.repo.personName(db, event.actor.userId))),
      kind: event.kind,
      target_id: event.targetId ?? null,
      data: JSON.stringify(event.data ?? {}),
      created_at: this.deps.clock.now().toISOString(),
    };
    await this.deps.repo.insert(row, db);
    for (const listener of this.listeners) await listener(db, row);
    return row;
  }
}

/** The `data` fields naming a version (its page link and "Version 4 on main"). */
export function versionData(facts: VersionFacts): Record<string, unknown> {
  return {
    version_id: facts.version_id,
    version_number: facts.version_number,
    branch_id: facts.branch_id,
    branch_name: facts.branch_name,
  };
}
