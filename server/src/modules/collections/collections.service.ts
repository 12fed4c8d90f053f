import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  COLLECTION_MESSAGES,
  type AddCollectionItemBody,
  type Collection,
  type CollectionItem,
  type CollectionSummary,
  type CreateCollectionBody,
  type Role,
  type UpdateCollectionBody,
} from '@takes/contract';
import type { Clock } from '../../clock';
import { isUniqueViolation } from '../../db/unique-violation';
import type { CollectionItemsTable, CollectionsTable } from '../../db/schema';
import { Conflict, NotFound } from '../../errors';
import type { JobQueue } from '../../jobs/job-queue';
import { storeCoverImage, versionedCoverUrl } from '../../media/cover-image';
import { deleteObjectsJob } from '../../storage/jobs';
import type { ObjectStore } from '../../storage/object-store';
import type { AccessPolicy, Action } from '../access';
import { storageKeys } from '../audio';
import type { CollectionsRepo, Executor, ResolvedItemRow } from './collections.repo';

export interface CollectionsDeps {
  access: AccessPolicy;
  repo: CollectionsRepo;
  clock: Clock;
  /** Where cover images are kept. */
  storage: ObjectStore;
  /** Removes a replaced or deleted collection's cover from the store. */
  jobs: JobQueue;
}

/**
 * Collections of takes. A collection has an owner and members with the roles of a project's (the
 * access policy decides: anyone else gets 404 'Collection not found', exactly like a missing one;
 * a member whose role is too low 403). Items come from any project the person adding them may
 * listen to; what an item shows is resolved on every read for the caller, with their role on its
 * project read fresh: an item of a project they cannot read (never could, or left) is listed as
 * unavailable, with nothing of that project. Membership of a collection opens no project.
 */
export class CollectionsService {
  constructor(private readonly deps: CollectionsDeps) {}

  async list(userId: string): Promise<{ collections: CollectionSummary[] }> {
    const rows = await this.deps.repo.listFor(userId);
    const items = await this.deps.repo.resolvedItems(
      userId,
      rows.map((row) => row.id),
    );
    const byCollection = new Map<string, ResolvedItemRow[]>();
    for (const item of items) {
      const list = byCollection.get(item.collection_id);
      if (list) list.push(item);
      else byCollection.set(item.collection_id, [item]);
    }
    return {
      collections: rows.map((row) => {
        const { items: _items, ...summary } = toCollection(
          row,
          row.role,
          byCollection.get(row.id) ?? [],
        );
        return summary;
      }),
    };
  }

  async create(userId: string, body: CreateCollectionBody): Promise<Collection> {
    const now = this.now();
    const row: CollectionsTable = {
      id: randomUUID(),
      owner_id: userId,
      name: body.name,
      description: emptyToNull(body.description),
      cover_key: null,
      cover_type: null,
      created_at: now,
      updated_at: now,
    };
    await this.deps.repo.insert(row);
    return toCollection(row, 'owner', []);
  }

  async get(userId: string, collectionId: string): Promise<Collection> {
    const { row, role } = await this.allowed(userId, collectionId, 'view');
    return toCollection(row, role, await this.deps.repo.resolvedItems(userId, [row.id]));
  }

  async update(
    userId: string,
    collectionId: string,
    body: UpdateCollectionBody,
  ): Promise<Collection> {
    await this.allowed(userId, collectionId, 'rename');
    const patch = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: emptyToNull(body.description) } : {}),
      updated_at: this.now(),
    };
    if (!(await this.deps.repo.update(collectionId, patch)))
      throw new NotFound(COLLECTION_MESSAGES.notFound);
    return this.get(userId, collectionId);
  }

  /** Deletes the collection (its items and links go with it) and its stored cover. */
  async delete(userId: string, collectionId: string): Promise<void> {
    await this.allowed(userId, collectionId, 'delete');
    const deleted = await this.deps.repo.transaction(async (trx) => {
      const row = await this.deps.repo.findLocked(trx, collectionId);
      if (!row || !(await this.deps.repo.delete(collectionId, trx))) return false;
      await this.removeObject(row.cover_key, trx);
      return true;
    });
    if (!deleted) throw new NotFound(COLLECTION_MESSAGES.notFound);
    this.deps.jobs.notify();
  }

  /**
   * Sets the collection's cover: a PNG, JPEG or WebP recognised by its content, at most
   * MAX_COVER_BYTES (415 / 413 with the repositories' messages, nothing kept). The cover it
   * replaces is removed from the store.
   */
  async setCover(userId: string, collectionId: string, file: Readable): Promise<Collection> {
    await this.allowed(userId, collectionId, 'editCover');
    const key = storageKeys.collectionCover(collectionId, randomUUID());
    const type = await storeCoverImage(this.deps.storage, key, file);
    const stillThere = await this.deps.repo.transaction(async (trx) => {
      const row = await this.deps.repo.findLocked(trx, collectionId);
      if (!row) return false;
      await this.deps.repo.setCover(trx, collectionId, { key, type }, this.now());
      await this.removeObject(row.cover_key, trx);
      return true;
    });
    if (!stillThere) {
      // Deleted while the image arrived: keep nothing of it.
      await this.deps.storage.delete(key);
      throw new NotFound(COLLECTION_MESSAGES.notFound);
    }
    this.deps.jobs.notify();
    return this.get(userId, collectionId);
  }

  /** Removes the collection's cover (if any) and its stored image. */
  async removeCover(userId: string, collectionId: string): Promise<void> {
    await this.allowed(userId, collectionId, 'editCover');
    const found = await this.deps.repo.transaction(async (trx) => {
      const row = await this.deps.repo.findLocked(trx, collectionId);
      if (!row) return false;
      if (row.cover_key) {
        await this.deps.repo.setCover(trx, collectionId, null, this.now());
        await this.removeObject(row.cover_key, trx);
      }
      return true;
    });
    if (!found) throw new NotFound(COLLECTION_MESSAGES.notFound);
    this.deps.jobs.notify();
  }

  /** The stored cover of a collection the caller may see (404 without one). */
  async cover(userId: string, collectionId: string): Promise<{ key: string; contentType: string }> {
    return coverOf((await this.allowed(userId, collectionId, 'view')).row);
  }

  /** Deletes a stored object once the transaction commits (a job, retried until it is gone). */
  private async removeObject(key: string | null, trx: Executor): Promise<void> {
    if (key) await this.deps.jobs.enqueue(deleteObjectsJob, { keys: [key] }, { executor: trx });
  }

  /**
   * Appends a pinned version or a followed branch. The caller must be an editor of the
   * collection, then able to listen to the take (the policy's 404 'Version not found' / 'Branch
   * not found' otherwise); each version and each branch appears once per collection (409).
   */
  async addItem(
    userId: string,
    collectionId: string,
    body: AddCollectionItemBody,
  ): Promise<CollectionItem> {
    await this.allowed(userId, collectionId, 'editItems');
    const target = await this.itemTarget(userId, body);
    const duplicate = new Conflict(
      target.version_id
        ? COLLECTION_MESSAGES.duplicateVersion
        : target.bounce_id
          ? COLLECTION_MESSAGES.duplicateBounce
          : COLLECTION_MESSAGES.duplicateBranch,
    );
    const id = randomUUID();
    let result;
    try {
      result = await this.deps.repo.appendItem({
        id,
        collection_id: collectionId,
        position: 0,
        ...target,
        added_by: userId,
        created_at: this.now(),
      });
    } catch (error) {
      // Two adds of the same target at once: the unique key refuses the second.
      if (isUniqueViolation(error)) throw duplicate;
      throw error;
    }
    if (result.kind === 'missing') throw new NotFound(COLLECTION_MESSAGES.notFound);
    if (result.kind === 'duplicate') throw duplicate;
    const added = (await this.get(userId, collectionId)).items.find((item) => item.id === id);
    // Removed again between the two statements: as if it had never been added.
    if (!added) throw new NotFound(COLLECTION_MESSAGES.itemNotFound);
    return added;
  }

  /** The take an item names, when the caller may listen to it (the policy's 404 otherwise). */
  private async itemTarget(
    userId: string,
    body: AddCollectionItemBody,
  ): Promise<Pick<CollectionItemsTable, 'version_id' | 'branch_id' | 'bounce_id'>> {
    const none = { version_id: null, branch_id: null, bounce_id: null };
    if (body.version_id)
      return {
        ...none,
        version_id: (await this.deps.access.version(userId, body.version_id, 'listen')).versionId,
      };
    if (body.bounce_id)
      return {
        ...none,
        bounce_id: (await this.deps.access.bounce(userId, body.bounce_id, 'listen')).bounceId,
      };
    return {
      ...none,
      branch_id: (await this.deps.access.branch(userId, body.branch_id ?? '', 'listen')).branchId,
    };
  }

  async removeItem(userId: string, collectionId: string, itemId: string): Promise<void> {
    await this.allowed(userId, collectionId, 'editItems');
    const result = await this.deps.repo.removeItem(collectionId, itemId, this.now());
    if (result === 'missing') throw new NotFound(COLLECTION_MESSAGES.notFound);
    if (result === 'no-item') throw new NotFound(COLLECTION_MESSAGES.itemNotFound);
  }

  /** A new order: exactly the collection's current item ids (409 when it changed meanwhile). */
  async reorder(userId: string, collectionId: string, itemIds: string[]): Promise<Collection> {
    await this.allowed(userId, collectionId, 'editItems');
    const result = await this.deps.repo.reorder(collectionId, itemIds, this.now());
    if (result === 'missing') throw new NotFound(COLLECTION_MESSAGES.notFound);
    if (result === 'stale') throw new Conflict(COLLECTION_MESSAGES.stale, { code: 'stale_order' });
    return this.get(userId, collectionId);
  }

  /** The collection when the policy lets the caller do the action (404 / 403 otherwise). */
  private async allowed(
    userId: string,
    collectionId: string,
    action: Action,
  ): Promise<{ row: CollectionsTable; role: Role }> {
    const { role } = await this.deps.access.collection(userId, collectionId, action);
    const row = await this.deps.repo.find(collectionId);
    // Deleted since the policy's read.
    if (!row) throw new NotFound(COLLECTION_MESSAGES.notFound);
    return { row, role };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

function emptyToNull(text: string | null | undefined): string | null {
  return text ? text : null;
}

/** A collection's stored cover, typed as it was sniffed (404 'This collection has no cover'). */
export function coverOf(row: CollectionsTable): { key: string; contentType: string } {
  if (!row.cover_key) throw new NotFound(COLLECTION_MESSAGES.noCover);
  return { key: row.cover_key, contentType: row.cover_type ?? 'application/octet-stream' };
}

/** A collection as the API shows it: items numbered 0..n-1 in stored order (gaps closed). */
function toCollection(row: CollectionsTable, role: Role, items: ResolvedItemRow[]): Collection {
  const shown = [...items]
    .sort((a, b) => a.position - b.position)
    .map((item, index) => toItem(item, index, role === 'owner'));
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    cover_url: row.cover_key
      ? versionedCoverUrl(`/api/collections/${row.id}/cover`, row.cover_key)
      : null,
    role,
    item_count: shown.length,
    total_duration: shown.reduce(
      (sum, item) => sum + (item.unavailable ? 0 : (item.duration ?? 0)),
      0,
    ),
    created_at: row.created_at,
    updated_at: row.updated_at,
    items: shown,
  };
}

/** What kind of item a row is. */
export function itemKind(row: Pick<ResolvedItemRow, 'version_id' | 'bounce_id'>) {
  if (row.bounce_id !== null) return 'bounce' as const;
  return row.version_id !== null ? ('version' as const) : ('latest' as const);
}

/**
 * One item; nothing of its project (or repository) unless the caller may read it now. The
 * collection's owner (`isOwner`: the rows were resolved for them) is told when their links do not
 * serve an item they may read: they may not share it (see CollectionLinksService.playable).
 */
function toItem(row: ResolvedItemRow, position: number, isOwner: boolean): CollectionItem {
  const kind = itemKind(row);
  const noAccess = {
    id: row.id,
    position,
    kind,
    unavailable: true,
    reason: 'no_access',
    link_unavailable_reason: null,
  } as const;
  if (!row.readable) return noAccess;
  const linkUnavailableReason =
    isOwner && !row.shareable ? COLLECTION_MESSAGES.linkNeedsShare : null;
  if (kind === 'bounce') {
    const { bounce } = row;
    if (!bounce) return noAccess;
    return {
      id: row.id,
      position,
      kind,
      unavailable: false,
      bounce_id: bounce.id,
      title: bounce.title,
      repo_id: bounce.repo_id,
      repo_name: bounce.repo_name,
      branch_name: bounce.branch_name,
      duration: bounce.duration,
      status: bounce.status,
      stream_url: `/api/repos/${bounce.repo_id}/bounces/${bounce.id}/stream`,
      link_unavailable_reason: linkUnavailableReason,
    };
  }
  if (
    row.resolved_id === null ||
    row.version_number === null ||
    row.status === null ||
    row.project_id === null ||
    row.project_name === null ||
    row.resolved_branch_id === null ||
    row.branch_name === null
  )
    return {
      id: row.id,
      position,
      kind,
      unavailable: true,
      reason: 'not_processed',
      link_unavailable_reason: linkUnavailableReason,
    };
  return {
    id: row.id,
    position,
    kind: kind,
    unavailable: false,
    version_id: row.resolved_id,
    version_number: row.version_number,
    message: row.message,
    project_id: row.project_id,
    project_name: row.project_name,
    branch_id: row.resolved_branch_id,
    branch_name: row.branch_name,
    duration: row.duration,
    status: row.status,
    stream_url: `/api/versions/${row.resolved_id}/stream`,
    link_unavailable_reason: linkUnavailableReason,
  };
}
