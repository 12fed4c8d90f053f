import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import SqliteDatabase from 'better-sqlite3';
import { z } from 'zod';
import type { Config } from '../config';
import { migrations } from '../db/migrations/index';

/**
 * What a Takes backup archive holds (a gzipped tar), in this order:
 *   manifest.json         the Manifest below: checked before anything is extracted
 *   database/takes.sqlite a consistent snapshot of the SQLite database
 *   secret.key            DATA_DIR/secret.key, when the key lives there
 *   objects/<key>         every stored object (audio, renditions, peaks, covers, avatars)
 *   end.json              how many objects (and bytes) were written: proves the archive is whole
 */
export const ENTRY = {
  manifest: 'manifest.json',
  database: 'database/takes.sqlite',
  secretKey: 'secret.key',
  objectsPrefix: 'objects/',
  end: 'end.json',
} as const;

export const BACKUP_FORMAT = 'takes-backup';
export const BACKUP_FORMAT_VERSION = 1;

const count = z.number().int().nonnegative();

/** What every format version's manifest starts with. */
export const manifestHeaderSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int().positive(),
});

export const manifestSchema = manifestHeaderSchema.extend({
  createdAt: z.string(),
  migration: z.string().min(1),
  database: z.object({ bytes: count, sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  counts: z.record(z.string(), count),
  secretKey: z.boolean(),
});
export type Manifest = z.infer<typeof manifestSchema>;

export const endSchema = z.object({ objects: count, bytes: count });
export type EndRecord = z.infer<typeof endSchema>;

/** A refusal or failure told to the operator as one line (main prints it and exits 1). */
export class OpsError extends Error {
  override name = 'OpsError';
}

/** The rows a manifest counts, so an operator sees at a glance what a backup holds. */
const COUNTED_TABLES = {
  users: ['user', 'users'],
  projects: ['project', 'projects'],
  versions: ['version', 'versions'],
  repos: ['repository', 'repositories'],
  bounces: ['bounce', 'bounces'],
  comments: ['comment', 'comments'],
} as const;

/** Migration names this code knows, in order. */
export function knownMigrations(): string[] {
  return Object.keys(migrations).sort();
}

/** The embedded default: a SQLite file and a local objects folder. */
export type EmbeddedConfig = Config & {
  database: Extract<Config['database'], { dialect: 'sqlite' }>;
  storage: Extract<Config['storage'], { driver: 'local' }>;
};

/**
 * backup and restore cover the embedded default only; PostgreSQL and S3 have tools of their own
 * that do it better (point-in-time dumps, bucket versioning), so we name them instead.
 */
export function assertEmbedded(
  config: Config,
  command: 'backup' | 'restore',
): asserts config is EmbeddedConfig {
  const postgres = config.database.dialect === 'postgres';
  const s3 = config.storage.driver === 's3';
  if (!postgres && !s3) return;
  const database = postgres
    ? 'the database with pg_dump -Fc (and pg_restore)'
    : "the SQLite database with sqlite3's .backup command";
  const objects = s3
    ? 'the objects with bucket versioning, or aws s3 sync / rclone sync'
    : 'the objects folder (STORAGE_DIR) with rsync';
  const uses = postgres && s3 ? 'PostgreSQL and S3' : postgres ? 'PostgreSQL' : 'S3';
  throw new OpsError(
    `${command} handles the embedded setup only (SQLite and a local objects folder); this one uses ` +
      `${uses}: ${command === 'backup' ? 'back up' : 'restore'} ${database}, and ${objects} ` +
      `(see docs/operations.md)`,
  );
}

export interface DatabaseFacts {
  migrations: string[];
  counts: Record<string, number>;
}

/**
 * Checks a database file that no server has open (a snapshot, or one being restored): SQLite's
 * own quick check, the migrations it has and its row counts. Leaves it in rollback-journal mode,
 * one self-contained file (the server turns WAL on again when it opens it).
 */
export function inspectDatabase(file: string): DatabaseFacts {
  const db = new SqliteDatabase(file, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new OpsError(`The database fails SQLite's check: ${String(check)}`);
    const hasMigrations = db
      .prepare(`select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'`)
      .get();
    if (!hasMigrations) throw new OpsError('The database has no Takes migrations');
    const names = db
      .prepare('select name from kysely_migration order by name')
      .pluck()
      .all() as string[];
    const counts: Record<string, number> = {};
    for (const table of Object.keys(COUNTED_TABLES)) {
      counts[table] = db.prepare(`select count(*) from ${table}`).pluck().get() as number;
    }
    return { migrations: names, counts };
  } finally {
    db.close();
  }
}

/**
 * A restored folder has no running worker, so no lease in it can still be held: jobs the backup
 * caught while they ran are handed back at once instead of waiting out their lease.
 */
export function releaseJobLeases(file: string): number {
  const db = new SqliteDatabase(file, { fileMustExist: true });
  try {
    return db
      .prepare(
        `update jobs set state = 'queued', lock_token = null, lease_expires_at = null where state = 'active'`,
      )
      .run().changes;
  } finally {
    db.close();
  }
}

export function describeCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([table, n]) => {
      const names = (COUNTED_TABLES as Record<string, readonly [string, string]>)[table];
      return names ? plural(n, ...names) : `${n} ${table}`;
    })
    .join(', ');
}

export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Flushes a file (or a folder's entries, after a rename) to the disk. */
export async function fsyncPath(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function pathExists(file: string): Promise<boolean> {
  return fsp.stat(file).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
}
