import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { REPO_MESSAGES, type Repository } from '@takes/contract';
import type { Clock } from '../../clock';
import { isUniqueViolation } from '../../db/unique-violation';
import { Conflict, NotFound } from '../../errors';
import { deleteObjectsJob } from '../../storage/jobs';
import type { JobQueue } from '../../jobs/job-queue';
import { storeCoverImage } from '../../media/cover-image';
import type { ObjectStore } from '../../storage/object-store';
import { ownedAudioKeys, queueCleanup, storageKeys } from '../audio';
import { coverUrl, toRepository } from './repos.presenter';
import type { ReposRepo } from './repos.repo';
import { NOT_FOUND, type AccessPolicy } from '../access';

export interface ReposDeps {
  access: AccessPolicy;
  repo: ReposRepo;
  clock: Clock;
  jobs: JobQueue;
  storage: ObjectStore;
  /** The desktop app's URL scheme, for pull links. */
  desktopScheme: string;
}

/**
 * Repositories and their covers. Every read and write asks the access policy first: a
 * non-member gets a missing repository, a member whose role is too low a 403. The caller's role
 * comes back in every repository.
 */
export class ReposService {
  private readonly repo: ReposRepo;

  constructor(private readonly deps: ReposDeps) {
    this.repo = deps.repo;
  }

  /** The repositories the caller owns or is a member of, with their role on each. */
  async list(userId: string): Promise<Repository[]> {
    const rows = await this.repo.summariesFor(userId);
    return rows.map((row) => toRepository(row, this.deps.desktopScheme, row.role));
  }

  async get(userId: string, repoId: string): Promise<Repository> {
    const { role } = await this.deps.access.repository(userId, repoId, 'view');
    const row = await this.repo.summary(repoId);
    if (!row) throw new NotFound(NOT_FOUND.repo);
    return toRepository(row, this.deps.desktopScheme, role);
  }

  /** A new repository of the caller's own (they are its owner); names are unique per owner. */
  async create(ownerId: string, name: string): Promise<Repository> {
    const now = this.now();
    const id = randomUUID();
    try {
      await this.repo.insertRepo({
        id,
        owner_id: ownerId,
        name,
        name_key: name.toLowerCase(),
        cover_key: null,
        cover_type: null,
        created_at: now,
        updated_at: now,
        activity_at: now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new Conflict(REPO_MESSAGES.repoExists);
      throw error;
    }
    return this.get(ownerId, id);
  }

  async rename(userId: string, repoId: string, name: string): Promise<Repository> {
    await this.deps.access.repository(userId, repoId, 'rename');
    try {
      await this.repo.renameRepo(repoId, name, this.now());
    } catch (error) {
      if (isUniqueViolation(error)) throw new Conflict(REPO_MESSAGES.repoExists);
      throw error;
    }
    return this.get(userId, repoId);
  }

  /** Removes the repository and everything under it; stored audio no one uses any more goes too. */
  async delete(userId: string, repoId: string): Promise<void> {
    await this.deps.access.repository(userId, repoId, 'delete');
    await this.repo.transaction(async (trx) => {
      const repo = await this.repo.repoById(repoId, trx);
      // Deleted by another request since the check.
      if (!repo) throw new NotFound(NOT_FOUND.repo);
      const bounces = await this.repo.bounceRowsOf(repoId, trx);
      const uploads = await this.repo.openUploadKeys(repoId, trx);
      // Guests' files waiting on it go with it (their rows by cascade): their audio here.
      const guests = await this.repo.guestFilesAudio(repoId, trx);
      await this.repo.deleteRepo(repoId, trx);
      // Every key, however many: the job lists them from the clean-up table in batches.
      await queueCleanup(trx, this.deps, {
        objects: [
          ...[...bounces, ...guests].flatMap(ownedAudioKeys),
          ...(repo.cover_key ? [repo.cover_key] : []),
        ],
        originals: [
          ...[...bounces, ...guests].map((b) => b.original_key),
          ...uploads.map((u) => u.object_key).filter((k): k is string => !!k),
        ],
      });
    });
    this.deps.jobs.notify();
  }

  async setCover(userId: string, repoId: string, file: Readable): Promise<string> {
    await this.deps.access.repository(userId, repoId, 'editCover');
    const key = storageKeys.cover(repoId, randomUUID());
    const type = await storeCoverImage(this.deps.storage, key, file);
    // Asked again once the image is in: a member removed while it arrived is refused.
    try {
      await this.deps.access.repository(userId, repoId, 'editCover');
    } catch (error) {
      await this.deps.storage.delete(key);
      throw error;
    }
    const now = this.now();
    const stillThere = await this.repo.transaction(async (trx) => {
      const repo = await this.repo.repoById(repoId, trx);
      if (!repo) return false;
      await this.repo.setCover(repoId, key, type, now, trx);
      if (repo.cover_key)
        await this.deps.jobs.enqueue(
          deleteObjectsJob,
          { keys: [repo.cover_key] },
          { executor: trx },
        );
      return true;
    });
    if (!stillThere) {
      await this.deps.storage.delete(key);
      throw new NotFound(NOT_FOUND.repo);
    }
    this.deps.jobs.notify();
    return coverUrl(repoId, key);
  }

  async cover(userId: string, repoId: string): Promise<{ key: string; contentType: string }> {
    await this.deps.access.repository(userId, repoId, 'view');
    const repo = await this.repo.repoById(repoId);
    if (!repo) throw new NotFound(NOT_FOUND.repo);
    if (!repo.cover_key) throw new NotFound('This repository has no cover');
    return { key: repo.cover_key, contentType: repo.cover_type ?? 'application/octet-stream' };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
