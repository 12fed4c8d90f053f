import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import type { Config } from '../config';
import { LocalObjectStore } from '../storage/local';
import { assertValidKey } from '../storage/object-store';
import { UrlSigner } from '../storage/url-signer';
import {
  assertEmbedded,
  BACKUP_FORMAT_VERSION,
  describeCounts,
  endSchema,
  ENTRY,
  formatBytes,
  fsyncPath,
  inspectDatabase,
  knownMigrations,
  manifestHeaderSchema,
  manifestSchema,
  OpsError,
  pathExists,
  plural,
  releaseJobLeases,
  sha256OfFile,
  type EmbeddedConfig,
  type EndRecord,
  type Manifest,
} from './backup-format';

export interface RestoreOptions {
  /** One line per step, for the operator. */
  say?: (line: string) => void;
}

export interface RestoreResult {
  manifest: Manifest;
  objects: EndRecord;
}

/** Where the archive is unpacked before anything moves into the data folder. */
interface Staged {
  database: string;
  objects: string;
  secretKey: string;
}

/**
 * Restores a backup archive into an empty data folder (DATA_DIR, STORAGE_DIR). Everything is
 * unpacked beside its final place and checked first (manifest, database checksum and SQLite's own
 * check, object count, the archive's end record); only a whole, verified backup is moved in, so
 * a damaged or truncated archive leaves the folder as it was. Newer migrations than the backup's
 * run at the next start, as after any update.
 */
export async function restoreBackup(
  config: Config,
  source: string,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const say = options.say ?? (() => {});
  assertEmbedded(config, 'restore');
  const file = path.resolve(source);
  const info = await fsp.stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new OpsError(`There is no backup file at ${file}`);
  await assertEmptyTarget(config);

  const tag = randomBytes(8).toString('hex');
  const staged: Staged = {
    database: `${config.database.file}.restore-${tag}`,
    objects: `${config.storage.dir}.restore-${tag}`,
    secretKey: path.join(config.dataDir, `secret.key.restore-${tag}`),
  };
  await fsp.mkdir(path.dirname(staged.database), { recursive: true });
  await fsp.mkdir(staged.objects, { recursive: true });
  await fsp.mkdir(config.dataDir, { recursive: true });
  try {
    say(`Reading ${file}`);
    const archive = await unpack(file, staged, (manifest) => {
      assertKnownMigration(file, manifest);
      say(
        `Backup of ${manifest.createdAt}, migration ${manifest.migration}: ${describeCounts(manifest.counts)}`,
      );
    });
    const resumed = await verify(file, archive, staged);
    const jobs = resumed
      ? `; ${plural(resumed, 'interrupted job', 'interrupted jobs')} will run again`
      : '';
    say(`Database: checked (${formatBytes(archive.manifest.database.bytes)})${jobs}`);
    say(
      `Objects: ${plural(archive.objects.objects, 'file', 'files')}, ${formatBytes(archive.objects.bytes)}`,
    );
    await moveIntoPlace(config, staged, archive.manifest.secretKey);
    if (archive.manifest.secretKey) {
      const kept = config.secretKey ? ' (SECRET_KEY in the environment still wins)' : '';
      say(`Secret key: restored to ${path.join(config.dataDir, 'secret.key')}${kept}`);
    }
    say(
      `Restored into ${config.dataDir}: start Takes as usual (node server/dist/main.js serve); ` +
        'it applies newer migrations at start',
    );
    return { manifest: archive.manifest, objects: archive.objects };
  } finally {
    await fsp.rm(staged.database, { force: true });
    await fsp.rm(`${staged.database}-journal`, { force: true });
    await fsp.rm(staged.objects, { recursive: true, force: true });
    await fsp.rm(staged.secretKey, { force: true });
  }
}

/** Refuses a folder that already holds a database or any object: a restore never merges. */
async function assertEmptyTarget(config: EmbeddedConfig): Promise<void> {
  const database = config.database.file;
  for (const file of [database, `${database}-wal`, `${database}-shm`, `${database}-journal`]) {
    if (await pathExists(file)) throw notEmpty(file);
  }
  const entries = await fsp
    .readdir(config.storage.dir, { recursive: true, withFileTypes: true })
    .catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
  if (entries.some((entry) => !entry.isDirectory())) throw notEmpty(config.storage.dir);
}

function notEmpty(what: string): OpsError {
  return new OpsError(
    `restore needs an empty data folder, but ${what} already exists: move it away ` +
      '(or point DATA_DIR at a new folder), then restore again',
  );
}

/** Refuses a backup of a database newer than this code knows how to run. */
function assertKnownMigration(file: string, manifest: Manifest): void {
  const known = knownMigrations();
  if (known.includes(manifest.migration)) return;
  const latest = known.at(-1) ?? '';
  throw new OpsError(
    manifest.migration > latest
      ? `${file} is from a newer Takes (database migration ${manifest.migration}; this Takes knows up to ${latest}): update Takes, then restore`
      : `${file} has a database migration this Takes does not know (${manifest.migration})`,
  );
}

interface Unpacked {
  manifest: Manifest;
  /** What the archive's end record says it holds, or undefined when it has none. */
  end: EndRecord | undefined;
  /** What was unpacked. */
  objects: EndRecord;
  database: boolean;
  secretKey: boolean;
}

const SMALL_ENTRY_BYTES = 1024 * 1024;

async function unpack(
  file: string,
  staged: Staged,
  onManifest: (manifest: Manifest) => void,
): Promise<Unpacked> {
  const extract = tar.extract();
  const reading = pipeline(fs.createReadStream(file), createGunzip(), extract);
  // Its failure also ends the loop below; it is reported there or awaited after.
  reading.catch(() => {});
  // The signer is never used: this store only writes.
  const store = new LocalObjectStore(
    staged.objects,
    new UrlSigner(randomBytes(16).toString('hex')),
  );
  let manifest: Manifest | undefined;
  const result = { end: undefined as EndRecord | undefined, database: false, secretKey: false };
  const objects: EndRecord = { objects: 0, bytes: 0 };
  try {
    for await (const entry of extract) {
      const { name, type } = entry.header;
      if (!manifest) {
        if (name !== ENTRY.manifest || type !== 'file') throw notBackup(file);
        manifest = parseManifest(file, await readSmall(entry));
        onManifest(manifest);
      } else if (result.end || type !== 'file') {
        throw unexpectedEntry(file, name);
      } else if (name === ENTRY.database && !result.database) {
        await pipeline(entry, fs.createWriteStream(staged.database, { flags: 'wx' }));
        result.database = true;
      } else if (name === ENTRY.secretKey && !result.secretKey) {
        await pipeline(entry, fs.createWriteStream(staged.secretKey, { flags: 'wx', mode: 0o600 }));
        result.secretKey = true;
      } else if (name.startsWith(ENTRY.objectsPrefix)) {
        const key = name.slice(ENTRY.objectsPrefix.length);
        if (!isObjectKey(key)) throw unexpectedEntry(file, name);
        const { size } = await store.put(key, Readable.from(entry));
        objects.objects++;
        objects.bytes += size;
      } else if (name === ENTRY.end) {
        const parsed = endSchema.safeParse(parseJson(await readSmall(entry)));
        if (!parsed.success) throw damaged(file, 'its end record is unreadable');
        result.end = parsed.data;
      } else {
        throw unexpectedEntry(file, name);
      }
    }
    await reading;
  } catch (error) {
    if (error instanceof OpsError) throw error;
    // zlib's and tar's own words ("incorrect header check", "unexpected end of file", …).
    const reason = error instanceof Error ? error.message : String(error);
    throw manifest ? damaged(file, reason) : notBackup(file);
  }
  if (!manifest) throw notBackup(file);
  return { manifest, objects, ...result };
}

/** Checks what was unpacked; returns how many interrupted jobs were handed back. */
async function verify(file: string, archive: Unpacked, staged: Staged): Promise<number> {
  const { manifest, end, objects } = archive;
  if (!end) throw damaged(file, 'it has no end record, so it was cut short');
  if (end.objects !== objects.objects || end.bytes !== objects.bytes) {
    throw damaged(
      file,
      `it lists ${end.objects} objects (${end.bytes} bytes) but holds ${objects.objects} (${objects.bytes} bytes)`,
    );
  }
  if (!archive.database) throw damaged(file, 'it holds no database');
  if (archive.secretKey !== manifest.secretKey) throw damaged(file, 'its secret key is missing');
  const sha256 = await sha256OfFile(staged.database);
  if (sha256 !== manifest.database.sha256) {
    throw damaged(file, "the database's checksum does not match the manifest");
  }
  let facts;
  try {
    facts = inspectDatabase(staged.database);
  } catch (error) {
    throw damaged(file, error instanceof Error ? error.message : String(error));
  }
  const known = new Set(knownMigrations());
  const unknown = facts.migrations.find((name) => !known.has(name));
  if (unknown) {
    throw new OpsError(
      `${file} is from a newer Takes (database migration ${unknown}): update Takes, then restore`,
    );
  }
  const released = releaseJobLeases(staged.database);
  await fsyncPath(staged.database);
  return released;
}

/**
 * Objects first and the database last: a folder holding the database is a restored one, so a
 * failure before that leaves no database without its objects.
 */
async function moveIntoPlace(
  config: EmbeddedConfig,
  staged: Staged,
  withSecretKey: boolean,
): Promise<void> {
  const secretKeyFile = path.join(config.dataDir, 'secret.key');
  const replaceSecretKey = withSecretKey && !(await sameSecretKey(staged.secretKey, secretKeyFile));
  // Something may have appeared while the archive was read (a server started by mistake).
  await assertEmptyTarget(config);

  // The store's part files of objects being written; none is left once every put has finished.
  await fsp.rm(path.join(staged.objects, '.tmp'), { recursive: true, force: true });
  // An empty objects folder (only empty subfolders, checked above) makes way for the restored one.
  await fsp.rm(config.storage.dir, { recursive: true, force: true });
  await fsp.rename(staged.objects, config.storage.dir);
  if (replaceSecretKey) await fsp.rename(staged.secretKey, secretKeyFile);
  await fsp.rename(staged.database, config.database.file);
  for (const folder of new Set([
    path.dirname(config.storage.dir),
    config.dataDir,
    path.dirname(config.database.file),
  ])) {
    await fsyncPath(folder);
  }
}

/** Whether the data folder already has this very key; a different key there is refused. */
async function sameSecretKey(staged: string, existing: string): Promise<boolean> {
  const current = await fsp.readFile(existing, 'utf8').catch(() => undefined);
  if (current === undefined) return false;
  if (current.trim() === (await fsp.readFile(staged, 'utf8')).trim()) return true;
  throw new OpsError(
    `${existing} holds a different secret key than the backup: move it away, then restore again`,
  );
}

function isObjectKey(key: string): boolean {
  try {
    assertValidKey(key);
    return key !== '.tmp' && !key.startsWith('.tmp/');
  } catch {
    return false;
  }
}

async function readSmall(entry: AsyncIterable<unknown>): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of entry) {
    if (!Buffer.isBuffer(chunk)) throw new OpsError('A small entry of the archive is unreadable');
    bytes += chunk.length;
    if (bytes > SMALL_ENTRY_BYTES) throw new OpsError('A small entry of the archive is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The format and its version first: a newer format is told apart from something else. */
function parseManifest(file: string, text: string): Manifest {
  const json = parseJson(text);
  const header = manifestHeaderSchema.safeParse(json);
  if (!header.success) throw notBackup(file);
  if (header.data.version > BACKUP_FORMAT_VERSION) {
    throw new OpsError(
      `${file} was made by a newer Takes (backup format ${header.data.version}): update Takes, then restore`,
    );
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) throw damaged(file, 'its manifest is unreadable');
  return parsed.data;
}

function notBackup(file: string): OpsError {
  return new OpsError(`${file} is not a Takes backup; nothing was restored`);
}

function damaged(file: string, reason: string): OpsError {
  return new OpsError(`${file} is damaged or incomplete (${reason}); nothing was restored`);
}

function unexpectedEntry(file: string, name: string): OpsError {
  return damaged(file, `unexpected entry ${JSON.stringify(name)}`);
}
