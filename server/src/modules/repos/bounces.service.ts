import { REPO_MESSAGES, type Bounce } from '@takes/contract';
import type { Clock } from '../../clock';
import { NotFound } from '../../errors';
import type { JobQueue } from '../../jobs/job-queue';
import { ownedAudioKeys, pickAudio, queueCleanup, type Quality, type StoredAudio } from '../audio';
import { toBounce, toRecentBounce, toRecentVersion, type RecentFeedItem } from './repos.presenter';
import type { ReposRepo } from './repos.repo';
import { NOT_FOUND, type AccessPolicy } from '../access';

export interface BouncesDeps {
  access: AccessPolicy;
  repo: ReposRepo;
  clock: Clock;
  jobs: JobQueue;
}

/**
 * Bounces of a repository: listing (the newest 1000), one commit's, streaming, deleting, and
 * the recent feed across every repository the caller owns or is a member of (with legacy
 * project versions when asked). Each asks the access policy first.
 */
export class BouncesService {
  private readonly repo: ReposRepo;

  constructor(private readonly deps: BouncesDeps) {
    this.repo = deps.repo;
  }

  async bounces(userId: string, repoId: string, branchName?: string): Promise<Bounce[]> {
    await this.deps.access.repository(userId, repoId, 'view');
    let branchId: string | undefined;
    if (branchName) {
      const branch = await this.repo.findBranch(repoId, branchName);
      if (!branch) throw new NotFound(REPO_MESSAGES.branchNotFound);
      branchId = branch.id;
    }
    const rows = await this.repo.bouncesOf(repoId, branchId);
    return rows.map((row) => toBounce(row, row.repo_name));
  }

  async commitBounces(userId: string, repoId: string, sha: string): Promise<Bounce[]> {
    await this.deps.access.repository(userId, repoId, 'view');
    const wanted = sha.toLowerCase();
    if (!/^[0-9a-f]{7,64}$/.test(wanted)) throw new NotFound(REPO_MESSAGES.commitNotFound);
    const commits = await this.repo.commitsByPrefix(repoId, wanted);
    const exact = commits.find((c) => c.sha === wanted);
    const commit = exact ?? (commits.length === 1 ? commits[0] : undefined);
    if (!commit) throw new NotFound(REPO_MESSAGES.commitNotFound);
    const rows = await this.repo.bouncesOfCommit(commit.id);
    return rows.map((row) => toBounce(row, row.repo_name));
  }

  async bounce(userId: string, repoId: string, bounceId: string): Promise<Bounce> {
    await this.deps.access.repository(userId, repoId, 'view');
    const row = await this.repo.bounceInRepo(repoId, bounceId);
    if (!row) throw new NotFound(NOT_FOUND.bounce);
    return toBounce(row, row.repo_name);
  }

  /** One bounce by its id, wherever it is (what a completed publish answers). */
  async bounceById(userId: string, bounceId: string): Promise<Bounce> {
    await this.deps.access.bounce(userId, bounceId, 'view');
    const row = await this.repo.bounceById(bounceId);
    if (!row) throw new NotFound(NOT_FOUND.bounce);
    return toBounce(row, row.repo_name);
  }

  /** Deleting a bounce is an Editor's (`editVersions`). */
  async deleteBounce(userId: string, repoId: string, bounceId: string): Promise<void> {
    await this.deps.access.repository(userId, repoId, 'editVersions');
    await this.repo.transaction(async (trx) => {
      const row = await this.repo.bounceRow(repoId, bounceId, trx);
      if (!row) throw new NotFound(NOT_FOUND.bounce);
      await this.repo.deleteBounce(bounceId, trx);
      await this.repo.touch(repoId, this.deps.clock.now().toISOString(), trx);
      await queueCleanup(trx, this.deps, {
        objects: ownedAudioKeys(row),
        originals: [row.original_key],
      });
    });
    this.deps.jobs.notify();
  }

  /**
   * What to stream for a quality: its rendition, or the original until renditions exist. Asked
   * on every request, so a removed member's next Range request of an open stream is refused.
   */
  async bounceAudio(
    userId: string,
    repoId: string,
    bounceId: string,
    quality: Quality,
  ): Promise<StoredAudio> {
    await this.deps.access.repository(userId, repoId, 'listen');
    const row = await this.repo.bounceRow(repoId, bounceId);
    if (!row) throw new NotFound(NOT_FOUND.bounce);
    return pickAudio(row, quality);
  }

  /**
   * Newest bounces of every repository the caller owns or is a member of; with `all`, the
   * versions of their own and shared projects too.
   */
  async recent(userId: string, limit: number, all: boolean): Promise<RecentFeedItem[]> {
    const items: RecentFeedItem[] = (await this.repo.recentBounces(userId, limit)).map(
      toRecentBounce,
    );
    if (all) {
      const versions = await this.repo.recentVersions(userId, limit);
      items.push(...versions.map(toRecentVersion));
      items.sort((a, b) =>
        a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0,
      );
    }
    return items.slice(0, limit);
  }
}
