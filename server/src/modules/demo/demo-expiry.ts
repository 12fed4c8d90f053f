import type { Clock } from '../../clock';
import { NotFound } from '../../errors';
import type { JobQueue } from '../../jobs/job-queue';
import { deleteObjectsJob } from '../../storage/jobs';
import type { ProjectsService } from '../projects';
import type { ReposService } from '../repos';
import type { DemoRepo } from './demo.repo';

export interface DemoExpiryDeps {
  demo: DemoRepo;
  /** Deletion goes through the same paths a person uses, so stored audio is released alike. */
  projects: Pick<ProjectsService, 'delete'>;
  repos: Pick<ReposService, 'delete'>;
  clock: Clock;
  jobs: JobQueue;
}

/** Expired accounts one run removes besides its own, so none outlives a lost job for long. */
const SWEEP_BATCH = 20;

/** The end of demo accounts, wired once in createServices for the expiry job. */
export class DemoExpiry {
  constructor(private readonly deps: DemoExpiryDeps) {}

  /**
   * The job that ends a demo account 24 hours after it began: the account and, after it, any
   * other expired one (a job lost or given up on leaves no account behind for good). Running it
   * again, or two at once, is harmless.
   */
  async expire(userId: string): Promise<void> {
    const { demo, clock } = this.deps;
    const due = await demo.expired(clock.now().toISOString(), SWEEP_BATCH);
    const own = await demo.isExpired(userId, clock.now().toISOString());
    const ids = new Set([...(own ? [userId] : []), ...due]);
    for (const id of ids) await deleteDemoAccount(this.deps, id);
  }
}

/**
 * Removes a demo account with everything it made, through the same deletion paths a person
 * uses (projects, repositories: their stored audio goes once nothing else uses it).
 */
async function deleteDemoAccount(deps: DemoExpiryDeps, userId: string): Promise<void> {
  const { demo, jobs, projects, repos } = deps;
  // Signed out first, so nothing new is made while its things are removed.
  await demo.deleteSessions(userId);
  for (const id of await demo.projectIds(userId)) await goneAlready(projects.delete(userId, id));
  for (const id of await demo.repoIds(userId)) await goneAlready(repos.delete(userId, id));

  await demo.transaction(async (trx) => {
    // A request already under way may have made something meanwhile: the retry removes it.
    if ((await demo.ownedCount(userId, trx)) > 0)
      throw new Error('The demo account made something while being removed');
    const avatarKey = await demo.avatarKey(userId, trx);
    const coverKeys = await demo.collectionCoverKeys(userId, trx);
    // Everything else of the user (sessions, profile, links, tokens, collections, the demo row)
    // goes with it; their stored images after it.
    await demo.deleteUser(userId, trx);
    const keys = [...(avatarKey ? [avatarKey] : []), ...coverKeys];
    if (keys.length > 0) await jobs.enqueue(deleteObjectsJob, { keys }, { executor: trx });
  });
  jobs.notify();
}

/** Another run may have deleted it a moment ago. */
async function goneAlready(deletion: Promise<void>): Promise<void> {
  try {
    await deletion;
  } catch (error) {
    if (!(error instanceof NotFound)) throw error;
  }
}
