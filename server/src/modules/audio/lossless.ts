import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { Database, ProcessedAudioColumns } from '../../db/schema';
import type { JobContext } from '../../jobs/registry';
import { canEncodeLossless, encodeFlac, losslessLimit } from '../../media/lossless';
import { NotAudioError, probeAudio, type AudioMetadata } from '../../media/probe';
import { MediaTimeoutError, MediaToolError, type MediaRunner } from '../../media/runner';
import type { ObjectStore } from '../../storage/object-store';
import { putFileHashed } from '../../storage/scratch-file';
import type { AudioTable } from './audio.repo';
import { AudioRepo } from './audio.repo';
import { parseJson, type Renditions } from './audio-view';
import { storageKeys } from './storage-keys';

/** What the FLAC work needs (a part of processing's deps). */
export interface LosslessDeps {
  storage: ObjectStore;
  db: Kysely<Database>;
  media: MediaRunner;
  clock: Clock;
  tmpDir: string;
  mediaTimeoutMs: number;
}

/**
 * Saves a change to the row's processing columns (processing's serialised save); the change is
 * not called when the row is gone.
 */
export type SaveRow = (
  change: (row: ProcessedAudioColumns) => Partial<ProcessedAudioColumns>,
) => Promise<void>;

/**
 * Makes the row's FLAC rendition ('Lossless') from a lossless original, or records that none can
 * be made (`lossless: null`), so the backfill never looks at the row again.
 */
export async function makeLossless(
  deps: Pick<LosslessDeps, 'storage' | 'media'>,
  job: {
    rowId: string;
    source: string;
    work: string;
    metadata: AudioMetadata;
    save: SaveRow;
    timeoutMs: number;
    signal?: AbortSignal | undefined;
    niceness: number;
  },
): Promise<void> {
  const record = (lossless: Renditions['lossless']) =>
    job.save((row) => {
      const renditions = parseJson<Renditions>(row.renditions, {});
      renditions.lossless = lossless;
      return { renditions: JSON.stringify(renditions) };
    });
  if (!canEncodeLossless(job.metadata)) return record(null);
  const out = path.join(job.work, 'lossless.flac');
  const maxBytes = losslessLimit(job.metadata);
  await encodeFlac(deps.media, job.source, out, {
    timeoutMs: job.timeoutMs,
    maxBytes,
    signal: job.signal,
    niceness: job.niceness,
  });
  const key = storageKeys.lossless(job.rowId);
  const { size, sha256 } = await putFileHashed(deps.storage, key, out, {
    contentType: 'audio/flac',
    maxBytes,
  });
  // The row may have gone meanwhile (deleted, or a guest's file accepted or declined): its
  // clean-up could not know this key, so the FLAC goes now rather than stay behind.
  let kept = false;
  await job.save((row) => {
    kept = true;
    const renditions = parseJson<Renditions>(row.renditions, {});
    renditions.lossless = { key, size, sha256 };
    return { renditions: JSON.stringify(renditions) };
  });
  if (!kept) await deps.storage.delete(key);
}

/** The original on local disk: a local store's file in place, else fetched into `work`. */
export async function localOriginal(
  deps: Pick<LosslessDeps, 'storage'>,
  row: Pick<ProcessedAudioColumns, 'original_key' | 'original_format'>,
  work: string,
): Promise<string> {
  const key = row.original_key;
  if (!key) throw new Error('no stored original');
  const local = deps.storage.localPath?.(key);
  if (local) return local;
  const file = path.join(work, `original.${row.original_format ?? 'bin'}`);
  const { body } = await deps.storage.get(key);
  await pipeline(body, fs.createWriteStream(file));
  return file;
}

/** Rows one backfill run handles at most, and the time after which it hands over to a next run. */
export const BACKFILL_BATCH = 20;
export const BACKFILL_RUN_MS = 60_000;
/** The formats an original with a FLAC rendition can have (m4a for ALAC). */
const LOSSLESS_FORMATS = ['wav', 'aiff', 'flac', 'm4a'];

/**
 * Gives versions and bounces processed before the FLAC rendition existed their 'Lossless': rows
 * whose renditions have no `lossless` entry yet, one at a time at media priority, up to a batch
 * or a minute per run. Answers whether rows are left (the job then queues its next run, so new
 * uploads' processing takes turns with it instead of waiting behind the whole library). A file
 * the encoder refuses is recorded as having none, so no run tries it again.
 */
export async function backfillLossless(
  deps: LosslessDeps,
  niceness: number,
  context: JobContext,
): Promise<{ done: number; more: boolean }> {
  const repo = new AudioRepo(deps.db);
  const started = Date.now();
  let done = 0;
  for (;;) {
    if (done >= BACKFILL_BATCH || Date.now() - started > BACKFILL_RUN_MS)
      return { done, more: true };
    const next =
      (await nextWithoutLossless(deps, 'versions')) ?? (await nextWithoutLossless(deps, 'bounces'));
    if (!next) return { done, more: false };
    await backfillRow(deps, repo, next.table, next.id, niceness, context);
    done += 1;
  }
}

async function nextWithoutLossless(
  deps: Pick<LosslessDeps, 'db'>,
  table: AudioTable,
): Promise<{ table: AudioTable; id: string } | undefined> {
  const row = await deps.db
    .selectFrom(table as 'versions')
    .select('id')
    .where('status', '=', 'completed')
    .where('original_key', 'is not', null)
    .where('original_format', 'in', LOSSLESS_FORMATS)
    .where(sql<boolean>`coalesce(renditions, '') not like ${'%"lossless"%'}`)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row ? { table, id: row.id } : undefined;
}

async function backfillRow(
  deps: LosslessDeps,
  repo: AudioRepo,
  table: AudioTable,
  id: string,
  niceness: number,
  context: JobContext,
): Promise<void> {
  const row = await repo.processed(table, id);
  if (!row?.original_key) return;
  const save: SaveRow = async (change) => {
    const fresh = await repo.processed(table, id);
    if (fresh)
      await repo.updateProcessed(table, id, {
        ...change(fresh),
        updated_at: deps.clock.now().toISOString(),
      });
  };
  const work = await fsp.mkdtemp(path.join(deps.tmpDir, `lossless-${id}-`));
  try {
    const source = await localOriginal(deps, row, work);
    let metadata = parseJson<AudioMetadata | null>(row.metadata, null);
    if (!metadata?.codec) metadata = await probeAudio(deps.media, source, deps.mediaTimeoutMs);
    await makeLossless(deps, {
      rowId: id,
      source,
      work,
      metadata,
      save,
      timeoutMs: deps.mediaTimeoutMs,
      signal: context.signal,
      niceness,
    });
  } catch (error) {
    if (context.signal.aborted) throw error;
    const fileProblem =
      error instanceof NotAudioError ||
      (error instanceof MediaToolError && !(error instanceof MediaTimeoutError));
    if (!fileProblem) throw error;
    context.logger.warn({ table, id, err: error }, 'no lossless rendition: the encoder refused');
    await save((r) => {
      const renditions = parseJson<Renditions>(r.renditions, {});
      renditions.lossless = null;
      return { renditions: JSON.stringify(renditions) };
    });
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}
