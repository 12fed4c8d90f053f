import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { systemClock, type Clock } from './clock';
import type { Config } from './config';
import { openDatabase, withStartupLock } from './db/database';
import { migrateToLatest } from './db/migrate';
import type { AppDeps } from './deps';
import { createEventBus } from './events/create-bus';
import { createServices, type Services } from './services';
import { createJobCatalog } from './jobs/catalog';
import { createJobQueue } from './jobs/create-queue';
import { JobRegistry } from './jobs/registry';
import { createMailer } from './mail/mailer';
import { MediaRunner } from './media/runner';
import { BUNDLED_FFMPEG_HINT, describeFfmpeg, resolveMediaTools } from './media/tools';
import { resolveSecretKey } from './secret-key';
import { createObjectStore } from './storage/create-store';
import { sweepOnceAndHourly } from './storage/tmp-sweep';
import { UrlSigner } from './storage/url-signer';

export interface Runtime extends AppDeps {
  /** The services the job worker uses; the HTTP app takes the same ones. */
  services: Services;
  close(): Promise<void>;
}

/** Opens every adapter from configuration, migrates the database and prepares the queue. */
export interface RuntimeOptions {
  clock?: Clock;
  /**
   * Whether this process hears live events (a `serve` process streams them to browsers). A worker
   * only announces them, so it keeps no listening connection open. Default: true.
   */
  listenForEvents?: boolean;
}

export async function openRuntime(
  config: Config,
  logger: FastifyBaseLogger,
  { clock = systemClock, listenForEvents = true }: RuntimeOptions = {},
): Promise<Runtime> {
  const secretKey = resolveSecretKey(config.secretKey, config.dataDir);
  const tools = resolveMediaTools(config.media);
  const media = new MediaRunner(tools);
  // Which ffmpeg encodes matters to speed: the log names it, and says when it is the slow one.
  if (tools.source.ffmpeg === 'npm')
    logger.warn({ ffmpeg: tools.ffmpeg }, `ffmpeg: ${BUNDLED_FFMPEG_HINT}`);
  else logger.info({ ffmpeg: tools.ffmpeg }, `ffmpeg: ${describeFfmpeg(tools)}`);
  const database = openDatabase(config.database, {
    onConnectionError: (error) =>
      logger.warn({ err: error.message }, 'database: a pooled connection was cut; reconnecting'),
  });
  try {
    const signer = new UrlSigner(secretKey);
    const storage = createObjectStore(config.storage, signer, () => clock.now());
    const tmpDir = path.join(config.dataDir, 'tmp');
    fs.mkdirSync(tmpDir, { recursive: true });
    // Made once the queue and mailer exist (below); no job runs before the worker starts.
    const made: { services?: Services } = {};
    const registry = new JobRegistry(
      createJobCatalog({
        storage,
        mediaTimeoutMs: config.media.timeoutMs,
        services: () => {
          if (!made.services) throw new Error('The services are not ready yet');
          return made.services;
        },
      }),
    );
    const jobs = createJobQueue(config, database.db, registry, clock, logger);
    // Migrations and pg-boss's schema and queue creation, one process at a time: pg-boss's
    // create_queue() inserts a queue row and then alters its tables, so two processes creating
    // queues at once deadlock on PostgreSQL.
    const applied = await withStartupLock(
      database,
      async () => {
        const migrations = await migrateToLatest(database.db);
        await jobs.open();
        return migrations;
      },
      () => logger.info('waiting for another Takes process to finish starting'),
    );
    if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
    // Scratch files of interrupted uploads: swept now (on the migrated schema) and every hour.
    const sweeper = await sweepOnceAndHourly({ tmpDir, db: database.db, storage, clock, logger });
    const mailer = createMailer(config.mail, logger);
    // Live updates: LISTEN/NOTIFY on PostgreSQL (many serve processes), in-process on SQLite.
    const events = await createEventBus(database, {
      connectionString: config.database.dialect === 'postgres' ? config.database.url : undefined,
      logger,
      listen: listenForEvents,
    }).catch(async (error: unknown) => {
      await sweeper.stop();
      await jobs.close();
      mailer.close();
      throw error;
    });
    const deps: AppDeps = {
      config,
      secretKey,
      tmpDir,
      database,
      storage,
      signer,
      jobs,
      media,
      mailer,
      clock,
      events,
    };
    const services = (made.services = createServices(deps));
    return {
      ...deps,
      services,
      close: async () => {
        await sweeper.stop();
        await jobs.close(config.jobs.shutdownGraceSeconds * 1000);
        await events.close();
        media.killAll();
        mailer.close();
        await database.destroy();
      },
    };
  } catch (error) {
    await database.destroy();
    throw error;
  }
}
