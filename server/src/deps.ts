import type { Clock } from './clock';
import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import type { EventBus } from './events/bus';
import type { JobQueue } from './jobs/job-queue';
import type { Mailer } from './mail/mailer';
import type { MediaRunner } from './media/runner';
import type { ObjectStore } from './storage/object-store';
import type { UrlSigner } from './storage/url-signer';

/** Everything the app talks to, passed in so a test can build an app from real parts in ms. */
export interface AppDeps {
  config: Config;
  /** Signs URLs, cookies and one-time codes. */
  secretKey: string;
  /** Scratch folder for uploads in flight and processing. */
  tmpDir: string;
  database: DatabaseHandle;
  storage: ObjectStore;
  signer: UrlSigner;
  jobs: JobQueue;
  media: MediaRunner;
  mailer: Mailer;
  clock: Clock;
  /** Live updates: announces recorded activity to every `serve` process's open streams. */
  events: EventBus;
}
