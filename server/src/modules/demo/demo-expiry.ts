import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { Database } from '../../db/schema';
import { HttpError } from '../../http/errors';
import { deleteObjectsJob } from '../../jobs/catalog';
import type { JobQueue } from '../../jobs/job-queue';
import type { ObjectStore } from '../../storage/object-store';
import { ProjectsRepo } from '../projects/projects.repo';
import { ProjectsService } from '../projects/projects.service';
import { ReposRepo } from '../repos/repos.repo';
import { ReposService } from '../repos/repos.service';
import { VersionsRepo } from '../versions/versions.repo';
import { VersionsService } from '../versions/versions.service';

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
  const due = await deps.db
    .selectFrom('demo_accounts')
    .select('user_id')
    .where('expires_at', '<=', deps.clock.now().toISOString())
    .orderBy('expires_at')
    .limit(SWEEP_BATCH)
    .execute();
  const own = await deps.db
    .selectFrom('demo_accounts')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('expires_at', '<=', deps.clock.now().toISOString())
    .executeTakeFirst();
  const ids = new Set([...(own ? [own.user_id] : []), ...due.map((row) => row.user_id)]);
  for (const id of ids) await deleteDemoAccount(deps, id);
}

/**
 * Removes a demo account with everything it made, through the same deletion paths a person
 * uses (projects, repositories: their stored audio goes once nothing else uses it).
 */
async function deleteDemoAccount(deps: DemoExpiryDeps, userId: string): Promise<void> {
  const { db, jobs } = deps;
  // Signed out first, so nothing new is made while its things are removed.
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  const projects: ProjectsService = new ProjectsService({
    repo: new ProjectsRepo(db),
    clock: deps.clock,
    jobs,
    versions: () => versions,
  });
  const versions = new VersionsService({ repo: new VersionsRepo(db), clock: deps.clock, projects });
  // Deleting builds no pull links, so the desktop scheme is never used here.
  const repos = new ReposService({
    repo: new ReposRepo(db),
    clock: deps.clock,
    jobs,
    storage: deps.storage,
    desktopScheme: 'takes',
  });
  const owned = await db
    .selectFrom('projects')
    .select('id')
    .where('owner_id', '=', userId)
    .execute();
  for (const { id } of owned) await goneAlready(projects.delete(userId, id));
  const ownedRepos = await db
    .selectFrom('repos')
    .select('id')
    .where('owner_id', '=', userId)
    .execute();
  for (const { id } of ownedRepos) await goneAlready(repos.delete(userId, id));

  await db.transaction().execute(async (trx) => {
    // A request already under way may have made something meanwhile: the retry removes it.
    const left = await trx
      .selectFrom('projects')
      .select('id')
      .where('owner_id', '=', userId)
      .unionAll(trx.selectFrom('repos').select('id').where('owner_id', '=', userId))
      .execute();
    if (left.length > 0) throw new Error('The demo account made something while being removed');
    const profile = await trx
      .selectFrom('profiles')
      .select('avatar_key')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    // Everything else of the user (sessions, profile, links, tokens, the demo row) goes with it.
    await trx.deleteFrom('users').where('id', '=', userId).execute();
    if (profile?.avatar_key)
      await jobs.enqueue(deleteObjectsJob, { keys: [profile.avatar_key] }, { executor: trx });
  });
  jobs.notify();
}

/** Another run may have deleted it a moment ago. */
async function goneAlready(deletion: Promise<void>): Promise<void> {
  try {
    await deletion;
  } catch (error) {
    if (!(error instanceof HttpError && error.statusCode === 404)) throw error;
  }
}
