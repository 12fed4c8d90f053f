import type { JobQueue } from './job-queue';
import type { JobLogger, JobRef } from './registry';

/**
 * Enqueues a job now and then every `everyMs` while this process works jobs: the queue gives it
 * retries and a record. Every worker process does this, so the job must be idempotent and cheap
 * to run more often than once per period (several processes each enqueue one). Returns a stop
 * function; the timer never keeps the process alive.
 */
export function startRecurring<P>(
  jobs: Pick<JobQueue, 'enqueue'>,
  job: JobRef<P>,
  payload: P,
  everyMs: number,
  logger: JobLogger,
): () => void {
  const enqueue = () => {
    jobs.enqueue(job, payload).catch((error: unknown) => {
      logger.error({ err: error, job: job.name }, 'could not enqueue a recurring job');
    });
  };
  enqueue();
  const timer = setInterval(enqueue, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
