import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import SqliteDatabase from 'better-sqlite3';
import tar from 'tar-stream';
import type { Config } from '../config';
import { LocalObjectStore } from '../storage/local';
import { ObjectNotFoundError } from '../storage/object-store';
import { UrlSigner } from '../storage/url-signer';
import {
  assertEmbedded,
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  describeCounts,
  ENTRY,
  formatBytes,
  fsyncPath,
  inspectDatabase,
  OpsError,
  pathExists,
  plural,
  sha256OfFile,
  type EndRecord,
  type Manifest,
} from './backup-format';

export interface BackupOptions {
  /** Replace an existing file at the target. */
  force?: boolean;
  /** One line per step, for the operator. */
  say?: (line: string) => void;
  now?: () => Date;
}

export interface BackupResult {
  file: string;
  manifest: Manifest;
  objects: EndRecord;
}

// better-sqlite3 copies this many pages per step; all at once means one read transaction, so
// the running server's writes (from another connection) can never make the copy start over.
const ALL_PAGES = 0x7fffffff;

/**
 * Writes one archive of the embedded setup while Takes may be running: a consistent snapshot
 * of the SQLite database (its online backup API), then the objects folder (objects are written
 * once and never changed, so whatever the snapshot points at is there to copy), the secret key
 * file and a manifest. The archive is written beside the target and renamed into place at the
 * end: a failure never leaves a half-written file under the target's name.
 */
export async function createBackup(
  config: Config,
  target: string,
  options: BackupOptions = {},
): Promise<BackupResult> {
  const say = options.say ?? (() => {});
  assertEmbedded(config, 'backup');
  const file = path.resolve(target);
  if (!path.relative(config.storage.dir, file).startsWith('..')) {
    throw new OpsError(`Write the backup outside the objects folder ${config.storage.dir}`);
  }
  await assertWritableTarget(file, options.force ?? false);
  const databaseFile = config.database.file;
  if (!(await pathExists(databaseFile))) {
    throw new OpsError(
      `There is no Takes database at ${databaseFile}: nothing to back up (check DATA_DIR)`,
    );
  }

  const scratch = path.join(path.dirname(file), `.${path.basename(file)}.${randomHex()}`);
  const snapshot = `${scratch}.sqlite`;
  const partial = `${scratch}.partial`;
  try {
    say(`Taking a snapshot of the database ${databaseFile}`);
    await snapshotDatabase(databaseFile, snapshot);
    const facts = inspectDatabase(snapshot);
    const migration = facts.migrations.at(-1) ?? '';
    const databaseBytes = (await fsp.stat(snapshot)).size;
    say(
      `Database: ${describeCounts(facts.counts)} (migration ${migration}, ${formatBytes(databaseBytes)})`,
    );

    const secretKeyFile = await secretKeyToKeep(config);
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      createdAt: (options.now?.() ?? new Date()).toISOString(),
      migration,
      database: { bytes: databaseBytes, sha256: await sha256OfFile(snapshot) },
      counts: facts.counts,
      secretKey: secretKeyFile !== undefined,
    };
    say(`Copying the objects from ${config.storage.dir}`);
    const objects = await writeArchive(partial, {
      manifest,
      snapshot,
      secretKeyFile,
      objectsDir: config.storage.dir,
    });
    say(`Objects: ${plural(objects.objects, 'file', 'files')}, ${formatBytes(objects.bytes)}`);
    say(
      secretKeyFile
        ? `Secret key: included (${secretKeyFile})`
        : config.secretKey
          ? 'Secret key: SECRET_KEY is set in the environment; keep it with your backups'
          : 'Secret key: none yet (Takes makes DATA_DIR/secret.key when it first starts)',
    );

    await fsyncPath(partial);
    await fsp.rename(partial, file);
    await fsyncPath(path.dirname(file));
    say(`Backup written to ${file} (${formatBytes((await fsp.stat(file)).size)})`);
    return { file, manifest, objects };
  } finally {
    await fsp.rm(snapshot, { force: true });
    await fsp.rm(partial, { force: true });
  }
}

async function assertWritableTarget(file: string, force: boolean): Promise<void> {
  const folder = path.dirname(file);
  const folderInfo = await fsp.stat(folder).catch(() => undefined);
  if (!folderInfo?.isDirectory()) throw new OpsError(`The folder ${folder} does not exist`);
  const existing = await fsp.lstat(file).catch(() => undefined);
  if (!existing) return;
  if (!existing.isFile()) throw new OpsError(`${file} exists and is not a file`);
  if (!force) {
    throw new OpsError(`${file} already exists: choose another name, or add --force to replace it`);
  }
}

/** SQLite's online backup: a consistent copy of a database that a server has open. */
async function snapshotDatabase(source: string, target: string): Promise<void> {
  const db = new SqliteDatabase(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    await db.backup(target, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
}

/** The key file to keep, when the key lives in DATA_DIR (no SECRET_KEY in the environment). */
async function secretKeyToKeep(config: Config): Promise<string | undefined> {
  if (config.secretKey) return undefined;
  const file = path.join(config.dataDir, 'secret.key');
  return (await pathExists(file)) ? file : undefined;
}

interface ArchiveParts {
  manifest: Manifest;
  snapshot: string;
  secretKeyFile: string | undefined;
  objectsDir: string;
}

async function writeArchive(file: string, parts: ArchiveParts): Promise<EndRecord> {
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), fs.createWriteStream(file, { flags: 'wx' }));
  // Reported below, after the entries; a rejection must not go unhandled meanwhile.
  written.catch(() => {});
  const end: EndRecord = { objects: 0, bytes: 0 };
  try {
    await addBuffer(pack, ENTRY.manifest, Buffer.from(JSON.stringify(parts.manifest, null, 2)));
    await addFile(pack, ENTRY.database, parts.snapshot);
    if (parts.secretKeyFile) await addFile(pack, ENTRY.secretKey, parts.secretKeyFile, 0o600);
    // The signer is never used: this store only lists and reads.
    const store = new LocalObjectStore(parts.objectsDir, new UrlSigner(randomHex()));
    for (const { key } of await store.list('')) {
      const object = await store.get(key).catch((error: unknown) => {
        // Deleted since the listing: a clean-up job removed it once nothing used it any more.
        if (error instanceof ObjectNotFoundError) return undefined;
        throw error;
      });
      if (!object) continue;
      await addStream(pack, `${ENTRY.objectsPrefix}${key}`, object.size, object.body);
      end.objects++;
      end.bytes += object.size;
    }
    await addBuffer(pack, ENTRY.end, Buffer.from(JSON.stringify(end)));
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
    throw error;
  }
  await written;
  return end;
}

function addBuffer(pack: tar.Pack, name: string, content: Buffer): Promise<void> {
  return addStream(pack, name, content.length, Readable.from([content]));
}

async function addFile(pack: tar.Pack, name: string, file: string, mode = 0o644): Promise<void> {
  const { size } = await fsp.stat(file);
  await addStream(pack, name, size, fs.createReadStream(file), mode);
}

function addStream(
  pack: tar.Pack,
  name: string,
  size: number,
  body: Readable,
  mode = 0o644,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const entry = pack.entry({ name, size, mode, mtime: new Date(), type: 'file' }, (error) =>
      error ? reject(error) : resolve(),
    );
    pipeline(body, entry).catch(reject);
  });
}

function randomHex(): string {
  return randomBytes(8).toString('hex');
}
