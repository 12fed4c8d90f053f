import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { Database } from '../../db/schema';
import { NotFound } from '../../errors';
import { HttpError } from '../../http/errors';
import { deleteObjectsJob } from '../../jobs/catalog';
import type { JobQueue } from '../../jobs/job-queue';
import type { ObjectStore } from '../../storage/object-store';
import { ProjectsRepo } from '../projects/projects.repo';
import { ProjectsService } from '../projects/projects.service';
import { ReposRepo } from '../repos/repos.repo';
import { ReposService } from '../repos/repos.service';
import { DemoRepo } from './demo.repo';

export interface DemoExpiryDeps {
  db: Kysely<Database>;
  clock: Clock;
  storage: ObjectStore;
  jobs: JobQueue;
}

/** Expired accounts one run removes besides its own, so none outlives a lost job for long. */
const SWEEP_BATCH = 20;

/**
 * The job that ends a demo account 24 hours after it began: the account and, after it, any
 * other expired one (a job lost or given up on leaves no account behind for good). Running it
 * again, or two at once, is harmless.
 */
export async function expireDemoAccounts(deps: DemoExpiryDeps, userId: string): Promise<void> {
  const demo = new DemoRepo(deps.db);
  const due = await demo.expired(deps.clock.now().toISOString(), SWEEP_BATCH);
  const own = await demo.isExpired(userId, deps.clock.now().toISOString());
  const ids = new Set([...(own ? [userId] : []), ...due]);
  for (const id of ids) await deleteDemoAccount(deps, demo, id);
}

/**
 * Removes a demo account with everything it made, through the same deletion paths a person
 * uses (projects, repositories: their stored audio goes once nothing else uses it).
 */
async function deleteDemoAccount(
  deps: DemoExpiryDeps,
  demo: DemoRepo,
  userId: string,
): Promise<void> {
  const { db, jobs } = deps;
  // Signed out first, so nothing new is made while its things are removed.
  await demo.deleteSessions(userId);
  const projects = new ProjectsService({ repo: new ProjectsRepo(db), clock: deps.clock, jobs });
  // Deleting builds no pull links, so the desktop scheme is never used here.
  const repos = new ReposService({
    repo: new ReposRepo(db),
    clock: deps.clock,
    jobs,
    storage: deps.storage,
    desktopScheme: 'takes',
  });
  for (const id of await demo.projectIds(userId)) await goneAlready(projects.delete(userId, id));
  for (const id of await demo.repoIds(userId)) await goneAlready(repos.delete(userId, id));

  await demo.transaction(async (trx) => {
    // A request already under way may have made something meanwhile: the retry removes it.
    if ((await demo.ownedCount(userId, trx)) > 0)
      throw new Error('The demo account made something while being removed');
    const avatarKey = await demo.avatarKey(userId, trx);
    // Everything else of the user (sessions, profile, links, tokens, the demo row) goes with it.
    await demo.deleteUser(userId, trx);
    if (avatarKey) await jobs.enqueue(deleteObjectsJob, { keys: [avatarKey] }, { executor: trx });
  });
  jobs.notify();
}

/**
 * Another run may have deleted it a moment ago. (Not found is a NotFound, or an HttpError 404 from
 * a service not yet moved to domain errors.)
 */
async function goneAlready(deletion: Promise<void>): Promise<void> {
  try {
    await deletion;
  } catch (error) {
    const notFound =
      error instanceof NotFound || (error instanceof HttpError && error.statusCode === 404);
    if (!notFound) throw error;
  }
}
