import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { createServices, type Services } from '../src/services';
import { systemClock, type Clock } from '../src/clock';
import { loadConfig } from '../src/config';
import type { AppDeps } from '../src/deps';
import { createJobCatalog } from '../src/jobs/catalog';
import { EmbeddedJobQueue } from '../src/jobs/embedded';
import { JobRegistry } from '../src/jobs/registry';
import { createEventBus } from '../src/events/create-bus';
import { LogMailer, type Mailer } from '../src/mail/mailer';
import { MediaRunner } from '../src/media/runner';
import { resolveMediaTools } from '../src/media/tools';
import { LocalObjectStore } from '../src/storage/local';
import type { ObjectStore } from '../src/storage/object-store';
import { UrlSigner } from '../src/storage/url-signer';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  /** The app's services (the same ones its routes and jobs use). */
  services: Services;
  /** How another process (a worker under test) reaches this app's database. */
  database: TestDatabase;
  dir: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  webDistDir?: string;
  env?: Record<string, string>;
  mailer?: Mailer;
  clock?: Clock;
  storage?: (dir: string, signer: UrlSigner) => ObjectStore;
  uploadMaxBytes?: number;
  /** The live-update stream's heartbeat, short for a test of it. */
  eventsHeartbeatMs?: number;
}

/** The secret every test app signs with (factories sign session cookies with it too). */
export const TEST_SECRET_KEY = 'test-secret-key-test-secret-key-0123456789';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

/** A whole app on real parts: a fresh database, a temp storage folder, real ffmpeg. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-app-'));
  const database = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dir,
    WEB_DIST_DIR: options.webDistDir ?? path.join(dir, 'no-web-build'),
    ...options.env,
  });
  const clock = options.clock ?? systemClock;
  const secretKey = TEST_SECRET_KEY;
  const signer = new UrlSigner(secretKey);
  const storage =
    options.storage?.(dir, signer) ??
    new LocalObjectStore(path.join(dir, 'objects'), signer, () => clock.now());
  const tmpDir = path.join(dir, 'tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  const media = new MediaRunner(resolveMediaTools(config.media));
  const registry = new JobRegistry(
    createJobCatalog({
      storage,
      mediaTimeoutMs: config.media.timeoutMs,
      services: () => services,
    }),
  );
  const jobs = new EmbeddedJobQueue(database.db, registry, {
    concurrency: 1,
    pollIntervalMs: 50,
    leaseMs: 5000,
    clock,
    logger: silent,
  });
  await jobs.open();
  // The bus the dialect picks: LISTEN/NOTIFY in this test's schema, or the in-process one.
  const events = await createEventBus(database, {
    connectionString: database.config.dialect === 'postgres' ? database.config.url : undefined,
    searchPath: database.searchPath,
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
    mailer: options.mailer ?? new LogMailer(silent, config.mail.from),
    clock,
    events,
  };
  const services = createServices(deps, { uploadMaxBytes: options.uploadMaxBytes });
  const app = await buildApp(deps, { services, eventsHeartbeatMs: options.eventsHeartbeatMs });
  await app.ready();
  return {
    app,
    deps,
    services,
    database,
    dir,
    close: async () => {
      await app.close();
      await jobs.close();
      await events.close();
      await database.cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A clock a test can move forward. */
export class TestClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** Cookie header value from a response's Set-Cookie headers. */
export function cookiesFrom(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((c) => c.split(';')[0]).join('; ');
}
