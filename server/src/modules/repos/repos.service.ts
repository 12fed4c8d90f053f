import { randomUUID } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import { REPO_MESSAGES, MAX_COVER_BYTES, type Repository } from '@takes/contract';
import type { Clock } from '../../clock';
import { isUniqueViolation } from '../../db/unique-violation';
import { Conflict, NotFound, TooLarge, Unsupported } from '../../errors';
import { deleteObjectsJob } from '../../storage/jobs';
import type { JobQueue } from '../../jobs/job-queue';
import { ImageSniffer, UnsupportedImageError } from '../../media/image-type';
import { ObjectTooLargeError, type ObjectStore } from '../../storage/object-store';
import { ownedAudioKeys, queueCleanup, storageKeys } from '../audio';
import { ownedRepo, REPO_NOT_FOUND } from './ownership';
import { coverUrl, toRepository } from './repos.presenter';
import type { ReposRepo } from './repos.repo';
import type { AccessPolicy } from '../access';

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
 * Repositories and their covers. Every read and write is scoped to the owner: another
 * person's repository answers as a missing one.
 */
export class ReposService {
  private readonly repo: ReposRepo;

  constructor(private readonly deps: ReposDeps) {
    this.repo = deps.repo;
  }

  async list(ownerId: string): Promise<Repository[]> {
    const rows = await this.repo.summaries(ownerId);
    return rows.map((row) => toRepository(row, this.deps.desktopScheme, 'owner'));
  }

  async get(ownerId: string, repoId: string): Promise<Repository> {
    const [row] = await this.repo.summaries(ownerId, repoId);
    if (!row) throw new NotFound(REPO_NOT_FOUND);
    return toRepository(row, this.deps.desktopScheme, 'owner');
  }

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

  async rename(ownerId: string, repoId: string, name: string): Promise<Repository> {
    await ownedRepo(this.repo, ownerId, repoId);
    try {
      await this.repo.renameRepo(repoId, name, this.now());
    } catch (error) {
      if (isUniqueViolation(error)) throw new Conflict(REPO_MESSAGES.repoExists);
      throw error;
    }
    return this.get(ownerId, repoId);
  }

  /** Removes the repository and everything under it; stored audio no one uses any more goes too. */
  async delete(ownerId: string, repoId: string): Promise<void> {
    await this.repo.transaction(async (trx) => {
      const repo = await ownedRepo(this.repo, ownerId, repoId, trx);
      const bounces = await this.repo.bounceRowsOf(repoId, trx);
      const uploads = await this.repo.openUploadKeys(repoId, trx);
      await this.repo.deleteRepo(repoId, trx);
      // Every key, however many: the job lists them from the clean-up table in batches.
      await queueCleanup(trx, this.deps, {
        objects: [...bounces.flatMap(ownedAudioKeys), ...(repo.cover_key ? [repo.cover_key] : [])],
        originals: [
          ...bounces.map((b) => b.original_key),
          ...uploads.map((u) => u.object_key).filter((k): k is string => !!k),
        ],
      });
    });
    this.deps.jobs.notify();
  }

  async setCover(ownerId: string, repoId: string, file: Readable): Promise<string> {
    await ownedRepo(this.repo, ownerId, repoId);
    const sniffer = new ImageSniffer();
    pipeline(file, sniffer, () => undefined);
    const key = storageKeys.cover(repoId, randomUUID());
    try {
      await this.deps.storage.put(key, sniffer, { maxBytes: MAX_COVER_BYTES });
    } catch (error) {
      if (error instanceof UnsupportedImageError) throw new Unsupported(REPO_MESSAGES.coverInvalid);
      if (error instanceof ObjectTooLargeError) throw new TooLarge(REPO_MESSAGES.coverTooLarge);
      throw error;
    }
    const type = sniffer.type?.mime ?? 'application/octet-stream';
    const now = this.now();
    const stillThere = await this.repo.transaction(async (trx) => {
      const repo = await this.repo.owned(ownerId, repoId, trx);
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
      throw new NotFound(REPO_NOT_FOUND);
    }
    this.deps.jobs.notify();
    return coverUrl(repoId, key);
  }

  async cover(ownerId: string, repoId: string): Promise<{ key: string; contentType: string }> {
    const repo = await ownedRepo(this.repo, ownerId, repoId);
    if (!repo.cover_key) throw new NotFound('This repository has no cover');
    return { key: repo.cover_key, contentType: repo.cover_type ?? 'application/octet-stream' };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
