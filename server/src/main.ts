import { config as loadDotenv } from 'dotenv';
import pino from 'pino';
import { buildApp } from './app';
import { ConfigError, loadConfig, productionMailProblem, type Config } from './config';
import { openDatabase, withStartupLock } from './db/database';
import { migrateToLatest } from './db/migrate';
import { pruneRateLimitsJob } from './modules/auth/jobs';
import { expireCollectionZipsJob } from './modules/collections/jobs';
import { expireExportsJob } from './modules/exports';
import { expireResumableUploadsJob } from './modules/uploads/jobs';
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
  const logger = pino({ level: config.logLevel, base: { service: `takes-${command}` } });

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

/** The housekeeping jobs every working process enqueues now and then; returns a stop function. */
function startRecurringJobs(runtime: Runtime, logger: pino.Logger): () => void {
  const stops = [
    startRecurring(runtime.jobs, pruneRateLimitsJob, {}, HOUR_MS, logger),
    startRecurring(runtime.jobs, expireExportsJob, {}, HOUR_MS, logger),
    startRecurring(runtime.jobs, expireCollectionZipsJob, {}, HOUR_MS, logger),
    startRecurring(runtime.jobs, expireResumableUploadsJob, {}, HOUR_MS, logger),
  ];
  return () => stops.forEach((stop) => stop());
}

/**
 * On SIGINT/SIGTERM: stop taking work, let what is running finish (jobs that overstay the grace
 * period are handed back to the queue), then exit; after 30 s, exit regardless.
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
    const force = setTimeout(() => {
      logger.error('shutdown took too long: exiting');
      process.exit(1);
    }, 30_000);
    force.unref();
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
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
