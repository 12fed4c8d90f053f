import { config as loadDotenv } from 'dotenv';
import pino from 'pino';
import { boundedOutput, type BoundedOutput } from '@takes/contract';
import { buildApp } from './app';
import { ConfigError, loadConfig, productionMailProblem, type Config } from './config';
import { openDatabase, withStartupLock } from './db/database';
import { migrateToLatest } from './db/migrate';
import { pruneRateLimitsJob } from './modules/auth/jobs';
import { losslessBackfillJob } from './modules/audio/jobs';
import { sweepBlindAudioJob } from './modules/blind-tests/jobs';
import { expireCollectionZipsJob } from './modules/collections/jobs';
import { expireExportsJob } from './modules/exports';
import { expireResumableUploadsJob } from './modules/uploads/jobs';
import { sweepStorageHoldsJob } from './modules/quotas/jobs';
import { startRecurring } from './jobs/recurring';
import { runOpsCommand } from './ops/command';
import { openRuntime, type Runtime } from './runtime';

type Command = 'serve' | 'worker' | 'migrate' | 'backup' | 'restore';
const COMMANDS: readonly Command[] = ['serve', 'worker', 'migrate', 'backup', 'restore'];

async function main(): Promise<void> {
  const command = (process.argv[2] ?? 'serve') as Command;
  if (!COMMANDS.includes(command)) {
    console.error(`Unknown command "${command}". Use one of: ${COMMANDS.join(', ')}`);
    process.exit(2);
  }
  loadDotenv({ quiet: true });
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (command === 'backup' || command === 'restore') {
    process.exit(await runOpsCommand(command, process.argv.slice(3), config));
  }
  // Sign-in codes must not end up in production log files by default.
  const mailProblem = command === 'migrate' ? undefined : productionMailProblem(config);
  if (mailProblem) {
    console.error(mailProblem);
    process.exit(1);
  }
  const service = `takes-${command}`;
  const logger = pino({ level: config.logLevel, base: { service } }, logOutput(service));

  switch (command) {
    case 'migrate':
      return migrate(config, logger);
    case 'worker':
      return worker(config, logger);
    case 'serve':
      return serve(config, logger);
  }
}

async function migrate(config: Config, logger: pino.Logger): Promise<void> {
  const database = openDatabase(config.database);
  try {
    const applied = await withStartupLock(
      database,
      () => migrateToLatest(database.db),
      () => logger.info('waiting for another Takes process to finish starting'),
    );
    logger.info(
      { migrations: applied },
      applied.length ? 'database migrated' : 'database already up to date',
    );
  } finally {
    await database.destroy();
  }
}

async function worker(config: Config, logger: pino.Logger): Promise<void> {
  const runtime = await openRuntime(config, logger, { listenForEvents: false });
  // No ffmpeg outlives this process, however it ends.
  process.once('exit', () => runtime.media.killAll());
  await runtime.jobs.startWorking();
  const stopRecurring = startRecurringJobs(runtime, logger);
  logger.info({ queue: runtime.jobs.kind }, 'worker started');
  onShutdown(logger, () => {
    stopRecurring();
    return runtime.close();
  });
}

async function serve(config: Config, logger: pino.Logger): Promise<void> {
  const runtime = await openRuntime(config, logger);
  process.once('exit', () => runtime.media.killAll());
  const app = await buildApp(runtime, { logger, services: runtime.services });
  if (config.jobs.runInServe) await runtime.jobs.startWorking();
  const stopRecurring = config.jobs.runInServe ? startRecurringJobs(runtime, logger) : () => {};
  await app.listen({ host: config.host, port: config.port });
  if (config.env === 'production' && !config.signups.chosen)
    logger.warn(
      'SIGNUPS is not set: anyone who can reach this address can make an account (choose open, invite-only or closed)',
    );
  logger.info(
    {
      url: config.publicUrl,
      database: runtime.database.dialect,
      storage: runtime.storage.kind,
      queue: runtime.jobs.kind,
      worker: config.jobs.runInServe,
      mail: runtime.mailer.kind,
    },
    `Takes is running on ${config.publicUrl}`,
  );
  onShutdown(logger, async () => {
    stopRecurring();
    // Requests in flight finish (new ones are refused) while running jobs get their grace period.
    await Promise.all([app.close(), runtime.jobs.close(config.jobs.shutdownGraceSeconds * 1000)]);
    await runtime.close();
  });
}

const HOUR_MS = 60 * 60 * 1000;

/** How long a stopping process waits for its last log lines to be read before it exits anyway. */
const LOG_FLUSH_MS = 2_000;
/** After a signal, a process exits within this, whatever its jobs, requests or log output do. */
const SHUTDOWN_DEADLINE_MS = 30_000;

let output: BoundedOutput | undefined;

/**
 * Logs go to stdout through a bounded buffer (OUTPUT_BUFFER_BYTES): a stalled reader can neither
 * grow the process's memory nor block it; lines that do not fit are dropped, counted and reported
 * in one line once the reader is back, and a broken pipe stops logging instead of being retried.
 */
function logOutput(service: string): BoundedOutput {
  output = boundedOutput(process.stdout, {
    droppedNotice: (count) =>
      `${JSON.stringify({
        level: 40,
        time: Date.now(),
        service,
        dropped_lines: count,
        msg: `${count} log lines were dropped while the log output was not being read`,
      })}\n`,
  });
  return output;
}

/** Exits once the log lines written so far have left (or after LOG_FLUSH_MS). */
function exitAfterFlush(code: number): void {
  void (output?.flush(LOG_FLUSH_MS) ?? Promise.resolve()).then(() => process.exit(code));
}

/** The housekeeping jobs every working process enqueues now and then; returns a stop function. */
function startRecurringJobs(runtime: Runtime, logger: pino.Logger): () => void {
  const stops = [
    startRecurring(runtime.jobs, pruneRateLimitsJob, {}, HOUR_MS, logger),
    startRecurring(runtime.jobs, expireExportsJob, {}, HOUR_MS, logger),
    startRecurring(runtime.jobs, expireCollectionZipsJob, {}, HOUR_MS, logger),
    startRecurring(runtime.jobs, sweepBlindAudioJob, {}, HOUR_MS, logger),
    startRecurring(runtime.jobs, losslessBackfillJob, {}, HOUR_MS, logger),
    startRecurring(runtime.jobs, expireResumableUploadsJob, {}, HOUR_MS, logger),
    startRecurring(runtime.jobs, sweepStorageHoldsJob, {}, HOUR_MS, logger),
  ];
  return () => stops.forEach((stop) => stop());
}

/**
 * On SIGINT/SIGTERM: stop taking work, let what is running finish (jobs that overstay the grace
 * period are handed back to the queue), flush the log output (at most LOG_FLUSH_MS), then exit;
 * after SHUTDOWN_DEADLINE_MS, exit regardless.
 */
function onShutdown(logger: pino.Logger, close: () => Promise<void>): void {
  let closing = false;
  const handler = (signal: NodeJS.Signals) => {
    if (closing) {
      logger.warn('second signal: exiting now');
      process.exit(1);
    }
    closing = true;
    logger.info({ signal }, 'shutting down');
    // Nothing can starve this timer: no log write blocks or retries (see logOutput).
    const force = setTimeout(() => {
      logger.error('shutdown took too long: exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    force.unref();
    close().then(
      () => {
        logger.info('stopped');
        exitAfterFlush(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        exitAfterFlush(1);
      },
    );
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

main().catch((error: unknown) => {
  // One clear line for people; the stack only when asked for.
  console.error(`Takes could not start: ${error instanceof Error ? error.message : String(error)}`);
  if (process.env.LOG_LEVEL === 'debug' && error instanceof Error) console.error(error.stack);
  process.exit(1);
});
