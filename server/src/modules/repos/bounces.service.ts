import { REPO_MESSAGES, type Bounce, type RecentBounce } from '@takes/contract';
import type { Clock } from '../../clock';
import { NotFound } from '../../errors';
import type { JobQueue } from '../../jobs/job-queue';
import { ownedAudioKeys, pickAudio, queueCleanup, type Quality, type StoredAudio } from '../audio';
import { ownedRepo } from './ownership';
import { toBounce, toRecentBounce, toRecentVersion } from './repos.presenter';
import type { ReposRepo } from './repos.repo';
import type { AccessPolicy } from '../access';

export interface BouncesDeps {
  access: AccessPolicy;
  repo: ReposRepo;
  clock: Clock;
  jobs: JobQueue;
}

const BOUNCE_NOT_FOUND = 'Bounce not found';

/**
 * Bounces of a repository: listing (the newest 1000), one commit's, streaming, deleting, and
 * the owner's recent feed across repositories (with legacy project versions when asked).
 */
export class BouncesService {
  private readonly repo: ReposRepo;

  constructor(private readonly deps: BouncesDeps) {
    this.repo = deps.repo;
  }

  async bounces(ownerId: string, repoId: string, branchName?: string): Promise<Bounce[]> {
    const repo = await ownedRepo(this.repo, ownerId, repoId);
    let branchId: string | undefined;
    if (branchName) {
      const branch = await this.repo.findBranch(repoId, branchName);
      if (!branch) throw new NotFound(REPO_MESSAGES.branchNotFound);
      branchId = branch.id;
    }
    const rows = await this.repo.bouncesOf(repoId, branchId);
    return rows.map((row) => toBounce(row, repo.name));
  }

  async commitBounces(ownerId: string, repoId: string, sha: string): Promise<Bounce[]> {
    const repo = await ownedRepo(this.repo, ownerId, repoId);
    const wanted = sha.toLowerCase();
    if (!/^[0-9a-f]{7,64}$/.test(wanted)) throw new NotFound(REPO_MESSAGES.commitNotFound);
    const commits = await this.repo.commitsByPrefix(repoId, wanted);
    const exact = commits.find((c) => c.sha === wanted);
    const commit = exact ?? (commits.length === 1 ? commits[0] : undefined);
    if (!commit) throw new NotFound(REPO_MESSAGES.commitNotFound);
    const rows = await this.repo.bouncesOfCommit(commit.id);
    return rows.map((row) => toBounce(row, repo.name));
  }

  async bounce(ownerId: string, repoId: string, bounceId: string): Promise<Bounce> {
    const repo = await ownedRepo(this.repo, ownerId, repoId);
    const row = await this.repo.bounceInRepo(repoId, bounceId);
    if (!row) throw new NotFound(BOUNCE_NOT_FOUND);
    return toBounce(row, repo.name);
  }

  /** One of the owner's bounces in any repository (what a completed publish answers). */
  async bounceById(ownerId: string, bounceId: string): Promise<Bounce> {
    const row = await this.repo.ownedBounce(ownerId, bounceId);
    if (!row) throw new NotFound(BOUNCE_NOT_FOUND);
    return toBounce(row, row.repo_name);
  }

  async deleteBounce(ownerId: string, repoId: string, bounceId: string): Promise<void> {
    await this.repo.transaction(async (trx) => {
      await ownedRepo(this.repo, ownerId, repoId, trx);
      const row = await this.repo.bounceRow(repoId, bounceId, trx);
      if (!row) throw new NotFound(BOUNCE_NOT_FOUND);
      await this.repo.deleteBounce(bounceId, trx);
      await this.repo.touch(repoId, this.deps.clock.now().toISOString(), trx);
      await queueCleanup(trx, this.deps, {
        objects: ownedAudioKeys(row),
        originals: [row.original_key],
      });
    });
    this.deps.jobs.notify();
  }

  /** What to stream for a quality: its rendition, or the original until renditions exist. */
  async bounceAudio(
    ownerId: string,
    repoId: string,
    bounceId: string,
    quality: Quality,
  ): Promise<StoredAudio> {
    await ownedRepo(this.repo, ownerId, repoId);
    const row = await this.repo.bounceRow(repoId, bounceId);
    if (!row) throw new NotFound(BOUNCE_NOT_FOUND);
    return pickAudio(row, quality);
  }

  /** Newest bounces of every repository; with `all`, legacy project versions too. */
  async recent(ownerId: string, limit: number, all: boolean): Promise<RecentBounce[]> {
    const items = (await this.repo.recentBounces(ownerId, limit)).map(toRecentBounce);
    if (all) {
      const versions = await this.repo.recentVersions(ownerId, limit);
      items.push(...versions.map(toRecentVersion));
      items.sort((a, b) =>
        a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0,
      );
    }
    return items.slice(0, limit);
  }
}
