import { randomUUID } from 'node:crypto';
import type { ActivityKind } from '@takes/contract';
import type { Clock } from '../../clock';
import type { ActivityTable } from '../../db/schema';
import type { ActivityDataOf, VersionKind, VersionRef } from './activity-data';
import type { ActivityRepo, Executor, VersionFacts } from './activity.repo';

/** Who did it: a signed-in person, or a visitor through a share link (their self-entered name). */
export type Actor = { userId: string; name?: string } | { visitorName: string };

/** `data` is required unless the kind keeps nothing there. */
type DataField<D> = Record<never, never> extends D ? { data?: D } : { data: D };

/** An event of one kind, before its place (a project or a repository) is given. */
export type UnplacedActivityEvent<K extends ActivityKind = ActivityKind> = K extends ActivityKind
  ? {
      kind: K;
      actor: Actor;
      /** The object it is about (version, comment, link, branch, member, commit, bounce). */
      targetId?: string;
    } & DataField<ActivityDataOf[K]>
  : never;

/** One meaningful event, as a service reports it: `data` typed by its kind. */
export type ActivityEvent<K extends ActivityKind = ActivityKind> = UnplacedActivityEvent<K> & {
  /** Exactly one of the two. */
  projectId?: string;
  repoId?: string;
};

/**
 * An event about one version: its project and the fields naming the version are read from the
 * version, so `data` holds only what the kind keeps beyond them.
 */
export type VersionActivityEvent<K extends VersionKind = VersionKind> = K extends VersionKind
  ? { kind: K; actor: Actor; targetId?: string } & DataField<
      Omit<ActivityDataOf[K], keyof VersionRef>
    >
  : never;

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

  /** What the team calls a person now (see `memberName`), for `data`. */
  personName(db: Executor, userId: string): Promise<string | null> {
    return this.deps.repo.personName(db, userId);
  }

  /** Records an event about a version (read in the transaction), naming it and its branch. */
  async recordForVersion<K extends VersionKind>(
    db: Executor,
    versionId: string,
    event: VersionActivityEvent<K>,
  ): Promise<ActivityTable> {
    const facts = await this.versionFacts(db, versionId);
    const { data, ...rest } = event;
    // The version's own fields plus the kind's: together the kind's data (checked above).
    return this.record(db, {
      ...rest,
      projectId: facts.project_id,
      targetId: event.targetId ?? versionId,
      data: { ...versionData(facts), ...data },
    } as ActivityEvent);
  }

  async record<K extends ActivityKind>(
    db: Executor,
    event: ActivityEvent<K>,
  ): Promise<ActivityTable> {
    const { kind, actor, projectId, repoId, targetId, data } = event;
    if ((projectId === undefined) === (repoId === undefined))
      throw new Error(`activity ${kind}: give exactly one of projectId and repoId`);
    const row: ActivityTable = {
      id: randomUUID(),
      project_id: projectId ?? null,
      repo_id: repoId ?? null,
      actor_id: 'userId' in actor ? actor.userId : null,
      // A copy of the name then (kept if the account goes; the list shows the current name).
      actor_name:
        'visitorName' in actor
          ? actor.visitorName
          : (actor.name ?? (await this.deps.repo.personName(db, actor.userId))),
      kind,
      target_id: targetId ?? null,
      data: JSON.stringify(data ?? {}),
      created_at: this.deps.clock.now().toISOString(),
    };
    await this.deps.repo.insert(row, db);
    for (const listener of this.listeners) await listener(db, row);
    return row;
  }
}

/** The `data` fields naming a version (its page link and "Version 4 on main"). */
export function versionData(facts: VersionFacts): VersionRef {
  return {
    version_id: facts.version_id,
    version_number: facts.version_number,
    branch_id: facts.branch_id,
    branch_name: facts.branch_name,
  };
}
