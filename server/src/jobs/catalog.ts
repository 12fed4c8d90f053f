import { alignmentJobs } from '../modules/alignment/job-handlers';
import { audioJobs } from '../modules/audio/job-handlers';
import { authJobs } from '../modules/auth/job-handlers';
import { blindTestJobs } from '../modules/blind-tests/job-handlers';
import { collectionsJobs } from '../modules/collections/job-handlers';
import { demoJobs } from '../modules/demo/job-handlers';
import { exportsJobs } from '../modules/exports/job-handlers';
import { guestUploadsJobs } from '../modules/guest-uploads/job-handlers';
import { notificationsJobs } from '../modules/notifications/job-handlers';
import { quotasJobs } from '../modules/quotas/job-handlers';
import { reposJobs } from '../modules/repos/job-handlers';
import { uploadsJobs } from '../modules/uploads/job-handlers';
import type { Services } from '../services';
import { storageJobs } from '../storage/job-handlers';
import type { ObjectStore } from '../storage/object-store';
import type { JobDefinition } from './registry';

export interface JobCatalogDeps {
  /** The object store, for the storage jobs (which need nothing else). */
  storage: ObjectStore;
  /** The media time limit, which the processing jobs' own time limit follows. */
  mediaTimeoutMs: number;
  /**
   * The app's services from createServices (made after the queue, which needs this catalog,
   * hence a function): every other job does its work through them.
   */
  services: () => Services;
}

/**
 * Every job the app runs, collected from the modules that declare them: a module's jobs.ts
 * names its jobs and their payloads (what its code enqueues), its job-handlers.ts says what
 * each one does. A worker registers all of them.
 */
export function createJobCatalog(deps: JobCatalogDeps): JobDefinition[] {
  const { services } = deps;
  return [
    ...storageJobs(deps.storage),
    ...audioJobs(services, deps.mediaTimeoutMs),
    ...alignmentJobs(services, deps.mediaTimeoutMs),
    ...blindTestJobs(services, deps.mediaTimeoutMs),
    ...guestUploadsJobs(services, deps.mediaTimeoutMs),
    ...reposJobs(services),
    ...authJobs(services),
    ...demoJobs(services),
    ...notificationsJobs(services),
    ...exportsJobs(services),
    ...collectionsJobs(services),
    ...uploadsJobs(services),
    ...quotasJobs(services),
  ];
}
