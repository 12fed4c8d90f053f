import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { Database } from '../db/schema';
import type { MediaRunner } from '../media/runner';
import { audioJobs } from '../modules/audio/jobs';
import { authJobs } from '../modules/auth/jobs';
import { collectionsJobs } from '../modules/collections/jobs';
import { demoJobs } from '../modules/demo/jobs';
import { exportsJobs } from '../modules/exports/jobs';
import { notificationsJobs } from '../modules/notifications/jobs';
import { reposJobs } from '../modules/repos/jobs';
import { uploadsJobs } from '../modules/uploads/jobs';
import type { Services } from '../services';
import { storageJobs } from '../storage/jobs';
import type { ObjectStore } from '../storage/object-store';
import type { JobQueue } from './job-queue';
import type { JobDefinition } from './registry';

export interface JobCatalogDeps {
  storage: ObjectStore;
  db: Kysely<Database>;
  media: MediaRunner;
  clock: Clock;
  /** Folder for scratch files (originals fetched for processing, renditions being made). */
  tmpDir: string;
  mediaTimeoutMs: number;
  /** The queue these jobs run on, for a job that deletes through paths that queue clean-ups. */
  queue: () => JobQueue;
  /** The app's services (made after the queue, hence a function), for jobs that use them. */
  services: () => Services;
}

/**
 * Every job the app runs, collected from the modules that declare them (each module's jobs.ts
 * holds its job names, payloads and handlers). A worker registers all of them.
 */
export function createJobCatalog(deps: JobCatalogDeps): JobDefinition[] {
  return [
    ...storageJobs(deps),
    ...audioJobs(deps),
    ...reposJobs(deps),
    ...authJobs(deps),
    ...demoJobs(deps),
    ...notificationsJobs(deps),
    ...exportsJobs(deps),
    ...collectionsJobs(deps),
    ...uploadsJobs(deps),
  ];
}
