import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { Database, ProcessedAudioColumns } from '../../db/schema';
import type { JobContext } from '../../jobs/registry';
import {
  analyse,
  encodeMp3,
  measureLoudness,
  minMaxOverview,
  NotAudioError,
  PeakFolder,
  probeAudio,
  type AudioMetadata,
  type Loudness,
  type Peaks,
} from '../../media/audio';
import { MediaTimeoutError, MediaToolError, type MediaRunner } from '../../media/runner';
import type { ObjectStore } from '../../storage/object-store';
import { putFileHashed } from '../../storage/scratch-file';
import { AudioRepo, type AudioTable } from './audio.repo';
import { parseJson, type Renditions, type WaveformInfo } from './audio-view';
import { localOriginal, makeLossless } from './lossless';
import { storedPeaksText } from './peaks-file';
import { storageKeys } from './storage-keys';
import type { ActivityLog } from '../activity';

/** Niceness of the media work: below the server's own requests (see below). */
export const MEDIA_NICENESS = 5;
/**
 * Niceness of the 320k encode when the three steps run at once: two steps ahead of the other two
 * (about 1.6 times their weight with the kernel's scheduler), as its share of the work is the
 * largest. At one priority the loudness meter ends first and the 320k encode ends last, alone on
 * one core while the other idles; weighted, the three end at about the same time (about 5 %
 * sooner on 2 cores; `npm run bench:processing` prints both).
 */
export const LONGEST_SHARE_NICENESS = 3;
/**
 * Niceness of the FLAC ('Lossless') encode: the lowest, so it takes only what the MP3 encodes and
 * the meter leave, and 'completed' comes as soon as without it.
 */
export const LOSSLESS_NICENESS = 19;

export interface ProcessingDeps {
  storage: ObjectStore;
  db: Kysely<Database>;
  media: MediaRunner;
  clock: Clock;
  tmpDir: string;
  mediaTimeoutMs: number;
  /** Records 'processing finished / failed' in the activity (none in some tests). */
  activity?: Pick<ActivityLog, 'recordForVersion'>;
  /**
   * Work that follows a version's completion (its alignment with the version before it): queued
   * after 'completed' is saved, and never able to undo or delay it.
   */
  afterCompleted?: (versionId: string) => Promise<void>;
}

export const RENDITIONS = { high: 320, standard: 128 } as const;
/** What the version or bounce shows when its file could not be processed. */
export const FAILED_MESSAGE =
  'This file could not be processed. It may be corrupt or truncated; try exporting it again and uploading the new file.';
/** What it shows when processing ran past the media time limit. */
export const TIMEOUT_MESSAGE =
  'Processing took too long and was stopped. Please try again with a shorter file.';
const MAX_ATTEMPTS = 3;

export type { AudioTable } from './audio.repo';

export function processVersion(
  deps: ProcessingDeps,
  versionId: string,
  context: JobContext,
): Promise<void> {
  return processAudio(deps, 'versions', versionId, context);
}

/**
 * Makes everything a version (or a bounce) needs from its original: metadata, the 320k and
 * 128k MP3 renditions, waveform peaks and loudness. The steps run as separate processes in
 * parallel (faster than one multi-output ffmpeg, which before version 7 runs its outputs in
 * turn), in three even shares of work (see below). Outputs have fixed keys per row, so running
 * again overwrites rather than duplicates.
 */
export async function processAudio(
  deps: ProcessingDeps,
  table: AudioTable,
  versionId: string,
  context: JobContext,
): Promise<void> {
  const repo = new AudioRepo(deps.db);
  const version = await repo.processed(table, versionId);
  // Deleted since it was queued, already done, or nothing stored to process.
  if (!version || version.status === 'completed' || !version.original_key) return;

  const work = await fsp.mkdtemp(path.join(deps.tmpDir, `process-${versionId}-`));
  const save = serialised(repo, table, versionId, deps.clock);
  const settle = (status: 'completed' | 'failed', error: string | null) =>
    save.run(() => settleStatus(deps, repo, table, versionId, status, error));
  /** The FLAC's run (see startLossless below), which never rejects. */
  let losslessRun: Promise<void> | undefined;
  try {
    // A local store's file is read in place; anything else is fetched to scratch first.
    const source = await localOriginal(deps, version, work);

    // The upload already probed the file; probe again only if that is missing.
    let metadata = parseJson<AudioMetadata | null>(version.metadata, null);
    if (!metadata?.duration) {
      metadata = await probeAudio(deps.media, source, deps.mediaTimeoutMs);
      await save({ metadata: JSON.stringify(metadata) });
    }
    // Only an estimate (a VBR MP3 without a length header): the decoded length replaces it.
    const estimated = metadata.durationEstimated === true;
    const known = metadata;
    // One failing step stops the others instead of leaving them writing into a removed folder.
    const stop = new AbortController();
    context.signal.addEventListener('abort', () => stop.abort(context.signal.reason), {
      once: true,
    });
    const options = { timeoutMs: deps.mediaTimeoutMs, signal: stop.signal };
    const together = async (steps: Promise<void>[]) => {
      const results = await Promise.allSettled(
        steps.map((step) =>
          step.catch((error: unknown) => {
            stop.abort(error);
            throw error;
          }),
        ),
      );
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    };

    const rendition = async (
      quality: keyof typeof RENDITIONS,
      niceness: number,
      peaks?: PeakFolder,
    ) => {
      const out = path.join(work, `${quality}.mp3`);
      const maxBytes = renditionLimit(known, RENDITIONS[quality]);
      await encodeMp3(deps.media, source, out, RENDITIONS[quality], {
        ...options,
        maxBytes,
        niceness,
        peaks,
      });
      const key = storageKeys.rendition(versionId, quality);
      // Its content hash is its ETag: renditions of every version share a file name.
      const { size, sha256 } = await putFileHashed(deps.storage, key, out, {
        contentType: 'audio/mpeg',
        maxBytes,
      });
      await save((row) => {
        const renditions = parseJson<Renditions>(row.renditions, {});
        renditions[quality] = { key, size, sha256 };
        return { renditions: JSON.stringify(renditions) };
      });
    };

    const savePeaks = async (peaks: Peaks) => {
      if (estimated) {
        known.duration = peaks.decodedSeconds;
        known.durationEstimated = false;
        await save({ metadata: JSON.stringify(known) });
      }
      // A file cut short still announces its full length in its header.
      else if (known.duration && peaks.decodedSeconds < known.duration * 0.98 - 0.25) {
        throw new NotAudioError(
          `Only ${peaks.decodedSeconds.toFixed(1)} s of ${known.duration.toFixed(1)} s decoded`,
        );
      }
      const peaksKey = storageKeys.peaks(versionId);
      const body = storedPeaksText(peaks);
      await deps.storage.put(peaksKey, streamOf(body), { contentType: 'application/json' });
      const waveform: WaveformInfo = {
        overview: peaks.overview,
        overviewMinMax: minMaxOverview(peaks.minMax),
        duration: known.duration,
        peaksKey,
        peaksPerSecond: peaks.peaksPerSecond,
      };
      await save({ waveform: JSON.stringify(waveform) });
    };
    const saveLoudness = (loudness: Loudness) => save({ loudness: JSON.stringify(loudness) });
    // 'Lossless': the FLAC of a lossless original, about a fifth of the 320k encode's work. It is
    // not waited for before 'completed' (the MP3s play first): with two or more cores it starts
    // with the other steps at the lowest priority and takes what they leave (the core the first
    // of them to finish frees); with one, it runs after them. Its failure never fails the version.
    const startLossless = () => {
      losslessRun ??= makeLossless(deps, {
        rowId: versionId,
        source,
        work,
        metadata: known,
        save,
        timeoutMs: deps.mediaTimeoutMs,
        signal: stop.signal,
        niceness: LOSSLESS_NICENESS,
      }).catch((error: unknown) => losslessFailed(error));
      return losslessRun;
    };
    const losslessFailed = async (error: unknown) => {
      if (stop.signal.aborted) return; // stopped with the rest; the backfill makes it later
      context.logger.warn({ table, id: versionId, err: error }, 'no lossless rendition');
      const fileProblem = error instanceof MediaToolError && !(error instanceof MediaTimeoutError);
      if (fileProblem) await save(noLossless).catch(() => undefined);
    };
    if (os.availableParallelism() > 1) void startLossless();
    const sampleRate = known.sampleRate ?? 44_100;

    // The work is three single-threaded processes (and the FLAC above). With two or more cores
    // all three run at once: the 320k encode; the 128k encode; the loudness meter, whose decode also feeds the waveform
    // peaks (the shortest share, so the peaks' extra work lands where there is room). The 320k
    // encode, the largest share, is weighted a little above the other two so that all three end
    // together, near the floor of the whole work spread over both cores (LONGEST_SHARE_NICENESS).
    // With one core they run in turn, the peaks taken from the 128k encode's decode.
    // Every priority is below the server's own requests (niceness above 0): listeners and pages
    // stay quick while uploads are processed, and the encodes use whatever the requests leave.
    if (estimated) {
      // The renditions' size limits need the real length: the analysis (which decodes) first.
      const { peaks, loudness } = await analyse(deps.media, source, sampleRate, {
        ...options,
        niceness: MEDIA_NICENESS,
        scratch: path.join(work, 'peaks.pcm'),
      });
      await savePeaks(peaks);
      await saveLoudness(loudness);
      await together([rendition('high', MEDIA_NICENESS), rendition('standard', MEDIA_NICENESS)]);
    } else if (os.availableParallelism() > 1) {
      await together([
        rendition('high', LONGEST_SHARE_NICENESS),
        rendition('standard', MEDIA_NICENESS),
        analyse(deps.media, source, sampleRate, {
          ...options,
          niceness: MEDIA_NICENESS,
          scratch: path.join(work, 'peaks.pcm'),
        }).then(async ({ peaks, loudness }) => {
          await savePeaks(peaks);
          await saveLoudness(loudness);
        }),
      ]);
    } else {
      const peaks = new PeakFolder(sampleRate);
      await rendition('standard', MEDIA_NICENESS, peaks);
      await savePeaks(peaks.result());
      await saveLoudness(
        await measureLoudness(deps.media, source, { ...options, niceness: MEDIA_NICENESS }),
      );
      await rendition('high', MEDIA_NICENESS);
    }
    await settle('completed', null);
    if (table === 'versions' && deps.afterCompleted) {
      try {
        await deps.afterCompleted(versionId);
      } catch (error) {
        context.logger.warn({ id: versionId, err: error }, 'work after processing not queued');
      }
    }
    await startLossless();
  } catch (error) {
    // Stopped from outside (shutdown, lost lease, time limit): not the file's fault.
    if (context.signal.aborted) throw error;
    const mediaProblem =
      error instanceof NotAudioError ||
      (error instanceof MediaToolError && !(error instanceof MediaTimeoutError));
    if (mediaProblem || context.attempt >= MAX_ATTEMPTS) {
      const message = error instanceof MediaTimeoutError ? TIMEOUT_MESSAGE : FAILED_MESSAGE;
      await settle('failed', message);
      context.logger.warn({ table, id: versionId, err: error }, 'audio processing failed');
      return;
    }
    throw error;
  } finally {
    // A FLAC still being made when a step failed was stopped with it; let it end before its
    // folder goes.
    await losslessRun;
    await fsp.rm(work, { recursive: true, force: true });
  }
}

/** The row has no FLAC and will not get one (the encoder refused the original). */
function noLossless(row: ProcessedAudioColumns): Partial<ProcessedAudioColumns> {
  const renditions = parseJson<Renditions>(row.renditions, {});
  renditions.lossless = null;
  return { renditions: JSON.stringify(renditions) };
}

/** Upper bound for a rendition: its bit rate over the duration, with room for headers. */
function renditionLimit(metadata: AudioMetadata, kbps: number): number {
  const seconds = metadata.duration ?? 3600;
  return Math.ceil((((seconds + 5) * kbps * 1000) / 8) * 1.1) + 1024 * 1024;
}

function streamOf(text: string): Readable {
  return Readable.from([Buffer.from(text)]);
}

type Change =
  Partial<ProcessedAudioColumns> | ((row: ProcessedAudioColumns) => Partial<ProcessedAudioColumns>);

/**
 * The final state, in one transaction with its activity ('version.processed' / 'version.failed'):
 * recorded only when the status changes, so a job run again records nothing twice. The job has
 * no user: the actor is whoever uploaded the version when that is known, else 'Takes'.
 */
async function settleStatus(
  deps: ProcessingDeps,
  repo: AudioRepo,
  table: AudioTable,
  id: string,
  status: 'completed' | 'failed',
  error: string | null,
): Promise<void> {
  await repo.transaction(async (trx) => {
    const changed = await repo.settle(
      table,
      id,
      { status, error, updated_at: deps.clock.now().toISOString() },
      trx,
    );
    const activity = deps.activity;
    if (!changed || table !== 'versions' || !activity) return;
    const uploader = await repo.uploaderOf(id, trx);
    await activity.recordForVersion(trx, id, {
      kind: status === 'completed' ? 'version.processed' : 'version.failed',
      actor: uploader ? { userId: uploader } : { visitorName: 'Takes' },
    });
  });
}

/** Row updates from parallel steps, applied one at a time so none overwrites another. */
function serialised(repo: AudioRepo, table: AudioTable, versionId: string, clock: Clock) {
  let chain: Promise<void> = Promise.resolve();
  const run = (work: () => Promise<void>): Promise<void> => {
    const next = chain.then(work);
    chain = next.catch(() => undefined);
    return next;
  };
  const save = (change: Change): Promise<void> =>
    run(async () => {
      const row = await repo.processed(table, versionId);
      if (!row) return;
      const values = typeof change === 'function' ? change(row) : change;
      await repo.updateProcessed(table, versionId, {
        ...values,
        updated_at: clock.now().toISOString(),
      });
    });
  return Object.assign(save, { run });
}
