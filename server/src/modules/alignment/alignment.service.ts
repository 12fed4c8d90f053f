import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import {
  ALIGNMENT_MAX_SECONDS,
  ALIGNMENT_MESSAGES,
  SHARE_MESSAGES,
  type Carried,
  type VersionAlignment,
  type VersionChanges,
} from '@takes/contract';
import type { Clock } from '../../clock';
import type { VersionAlignmentsTable } from '../../db/schema';
import { Invalid, NotFound } from '../../errors';
import type { JobQueue } from '../../jobs/job-queue';
import type { JobContext } from '../../jobs/registry';
import { MediaToolError, type MediaRunner } from '../../media/runner';
import type { ObjectStore } from '../../storage/object-store';
import type { AccessPolicy } from '../access';
import { parseJson, storedDuration } from '../audio';
import { alignFeatures, type AlignmentSegment } from './align';
import type { AlignableVersion, AlignmentRepo } from './alignment.repo';
import { changedRegions, CHANGES_SAMPLE_RATE, type Changes } from './changes';
import { ALIGN_SAMPLE_RATE, featuresOf } from './features';
import { alignVersionsJob } from './jobs';
import { inverted, mapTimes } from './time-map';

export interface AlignmentDeps {
  access: AccessPolicy;
  repo: AlignmentRepo;
  jobs: JobQueue;
  storage: ObjectStore;
  media: MediaRunner;
  clock: Clock;
  tmpDir: string;
  mediaTimeoutMs: number;
}

/** Below the server's own requests, like the rest of the media work. */
const NICENESS = 5;
/** A pending alignment older than this lost its job (a crash): asking again starts another. */
const STALE_PENDING_MS = 30 * 60 * 1000;
/**
 * A failure that may pass (the audio could not be fetched or read, or the job failed twice) is
 * tried again when the pair is asked for this long after it failed: a storage hiccup does not
 * stick. Versions too long to align are never tried again.
 */
const RETRY_FAILED_MS = 10 * 60 * 1000;
const RETRYABLE_FAILURES: ReadonlySet<string> = new Set([
  ALIGNMENT_MESSAGES.undecodable,
  ALIGNMENT_MESSAGES.failed,
]);

/** What a comment of an earlier version becomes on the asked one. */
export interface CarriedTimes {
  timestamp: number | null;
  end_timestamp: number | null;
  carried: Carried;
}

/** Carries comments of the branch's earlier versions onto one version (see `carrierTo`). */
export type Carrier = (comment: {
  version_id: string;
  version_number: number;
  timestamp: number | null;
  end_timestamp: number | null;
}) => CarriedTimes;

/**
 * Comments that follow the music: lines up each new version with the branch's version before it
 * (a job queued when processing completes; never part of processing), any two versions of a
 * project on demand, and carries earlier versions' comments through those maps.
 */
export class AlignmentService {
  constructor(private readonly deps: AlignmentDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /**
   * After a version completes: align it with the version before it on its branch, and start the
   * pairs that waited for it. Failing here never touches the version (the caller logs it).
   */
  async afterProcessing(versionId: string): Promise<void> {
    const [version] = await this.deps.repo.versions([versionId]);
    if (!version || version.status !== 'completed') return;
    const previous = await this.deps.repo.previousOf(version);
    if (previous) await this.request(previous, versionId);
    for (const row of await this.deps.repo.pendingWith(versionId)) {
      await this.deps.jobs.enqueue(alignVersionsJob, {
        fromVersionId: row.from_version_id,
        toVersionId: row.to_version_id,
      });
    }
  }

  /** Makes sure the pair is aligned or on its way; a new (or lost) pending row gets its job. */
  private async request(from: string, to: string): Promise<VersionAlignmentsTable | undefined> {
    const found = await this.deps.repo.find(from, to);
    if (found && !this.startsAgain(found)) return found;
    if (found) {
      await this.deps.repo.update(found.from_version_id, found.to_version_id, {
        status: 'pending',
        error: null,
        updated_at: this.now(),
      });
    } else if (!(await this.deps.repo.insertPending(from, to, this.now()))) {
      // Someone else's request made the row a moment ago, with its job.
      return this.deps.repo.find(from, to);
    }
    const versions = await this.deps.repo.versions([from, to]);
    // A version still processing starts the job itself when it completes (afterProcessing).
    if (versions.length === 2 && versions.every((v) => v.status === 'completed')) {
      await this.deps.jobs.enqueue(alignVersionsJob, {
        fromVersionId: found?.from_version_id ?? from,
        toVersionId: found?.to_version_id ?? to,
      });
    }
    return this.deps.repo.find(from, to);
  }

  /** A pending row nobody finished, or a failure that may have passed (see RETRY_FAILED_MS). */
  private startsAgain(row: VersionAlignmentsTable): boolean {
    const age = this.deps.clock.now().getTime() - new Date(row.updated_at).getTime();
    if (row.status === 'pending') return age > STALE_PENDING_MS;
    return (
      row.status === 'failed' && RETRYABLE_FAILURES.has(row.error ?? '') && age > RETRY_FAILED_MS
    );
  }

  /** GET /api/versions/:id/alignment?to=: both readable by the caller, in one project. */
  async alignment(userId: string, versionId: string, otherId: string): Promise<VersionAlignment> {
    const row = await this.pairFor(userId, versionId, otherId);
    if (typeof row === 'string' || row.status !== 'ready')
      return { ...notReady(row), confidence: null, segments: [] };
    const segments = parseJson<AlignmentSegment[]>(row.segments, []);
    return {
      status: 'ready',
      confidence: row.confidence ?? 0,
      segments: row.from_version_id === versionId ? segments : inverted(segments),
      error: null,
    };
  }

  /** GET /api/versions/:id/changes?against=: what changed, on the asked version's timeline. */
  async changes(userId: string, versionId: string, againstId: string): Promise<VersionChanges> {
    const row = await this.pairFor(userId, versionId, againstId);
    if (typeof row === 'string' || row.status !== 'ready')
      return { ...notReady(row), threshold_db: null, regions: [] };
    const side = row.from_version_id === versionId ? row.from_changes : row.to_changes;
    const changes = parseJson<Changes | null>(side, null);
    return {
      status: 'ready',
      threshold_db: changes?.threshold_db ?? null,
      regions: changes?.regions ?? [],
      error: null,
    };
  }

  /**
   * The pair's row for a caller who may read both versions of one project (404 otherwise),
   * started when missing; a version that failed processing answers its message instead.
   */
  private async pairFor(
    userId: string,
    versionId: string,
    otherId: string,
  ): Promise<VersionAlignmentsTable | string> {
    const mine = await this.deps.access.version(
      userId,
      versionId,
      'view',
      SHARE_MESSAGES.versionNotFound,
    );
    if (otherId === versionId) throw new Invalid(ALIGNMENT_MESSAGES.sameVersion);
    const other = await this.deps.access.version(
      userId,
      otherId,
      'view',
      SHARE_MESSAGES.versionNotFound,
    );
    if (other.projectId !== mine.projectId) throw new NotFound(SHARE_MESSAGES.versionNotFound);
    const versions = await this.deps.repo.versions([versionId, otherId]);
    if (versions.some((v) => v.status === 'failed')) return ALIGNMENT_MESSAGES.notProcessed;
    return (await this.request(versionId, otherId)) ?? 'pending';
  }

  /**
   * The job: decodes both versions' audio to mono at the features' rate, aligns them and keeps
   * the map. A problem with the audio is recorded as a failed alignment (the versions are not
   * touched); anything else is retried once, then recorded too.
   */
  async run(fromId: string, toId: string, context: JobContext): Promise<void> {
    const versions = await this.deps.repo.versions([fromId, toId]);
    const from = versions.find((v) => v.id === fromId);
    const to = versions.find((v) => v.id === toId);
    // Deleted since (its rows went with it), or asked before both were processed.
    if (!from || !to) return;
    if (from.status !== 'completed' || to.status !== 'completed') {
      if (from.status === 'failed' || to.status === 'failed')
        await this.fail(fromId, toId, ALIGNMENT_MESSAGES.notProcessed);
      return;
    }
    try {
      if ([from, to].some((v) => (storedDuration(v.metadata) ?? 0) > ALIGNMENT_MAX_SECONDS)) {
        await this.fail(fromId, toId, ALIGNMENT_MESSAGES.tooLong);
        return;
      }
      const fromFeatures = featuresOf(await this.decode(from, context, ALIGN_SAMPLE_RATE));
      await yieldToRequests();
      const toFeatures = featuresOf(await this.decode(to, context, ALIGN_SAMPLE_RATE));
      await yieldToRequests();
      const result = alignFeatures(fromFeatures, toFeatures);
      await yieldToRequests();
      // What changed, on each side's timeline, from the higher rendition at a wider rate.
      const fromWide = await this.decode(from, context, CHANGES_SAMPLE_RATE, 'high');
      const toWide = await this.decode(to, context, CHANGES_SAMPLE_RATE, 'high');
      const fromChanges = await changedRegions(fromWide, toWide, result.segments);
      await yieldToRequests();
      const toChanges = await changedRegions(toWide, fromWide, inverted(result.segments));
      await this.deps.repo.update(fromId, toId, {
        status: 'ready',
        confidence: result.confidence,
        segments: JSON.stringify(result.segments),
        from_changes: JSON.stringify(fromChanges),
        to_changes: JSON.stringify(toChanges),
        error: null,
        updated_at: this.now(),
      });
      context.logger.info(
        { fromVersionId: fromId, toVersionId: toId, segments: result.segments.length },
        'versions aligned',
      );
    } catch (error) {
      if (context.signal.aborted) throw error;
      if (error instanceof UnreadableAudio || error instanceof MediaToolError) {
        await this.fail(fromId, toId, ALIGNMENT_MESSAGES.undecodable);
      } else if (context.attempt >= 2) {
        await this.fail(fromId, toId, ALIGNMENT_MESSAGES.failed);
      } else {
        throw error;
      }
      context.logger.warn(
        { fromVersionId: fromId, toVersionId: toId, err: error },
        'alignment failed',
      );
    }
  }

  private async fail(from: string, to: string, message: string): Promise<void> {
    // A job for a pair nobody asked for through a row (an old queue entry) records one now.
    await this.deps.repo.insertPending(from, to, this.now());
    await this.deps.repo.update(from, to, {
      status: 'failed',
      confidence: null,
      segments: null,
      from_changes: null,
      to_changes: null,
      error: message,
      updated_at: this.now(),
    });
  }

  /** A rendition (else the other one, else the original) as mono samples at `rate`. */
  private async decode(
    version: AlignableVersion,
    context: JobContext,
    rate: number,
    prefer: 'standard' | 'high' = 'standard',
  ): Promise<Float32Array> {
    const renditions = parseJson<Record<string, { key?: string } | undefined>>(
      version.renditions,
      {},
    );
    const other = prefer === 'standard' ? 'high' : 'standard';
    const key = renditions[prefer]?.key ?? renditions[other]?.key ?? version.original_key;
    if (!key) throw new UnreadableAudio('no stored audio');
    let work: string | undefined;
    try {
      let file = this.deps.storage.localPath?.(key);
      if (!file) {
        work = await fsp.mkdtemp(path.join(this.deps.tmpDir, `align-${version.id}-`));
        file = path.join(work, 'audio');
        const { body } = await this.deps.storage.get(key);
        await pipeline(body, fs.createWriteStream(file));
      }
      const { stdout } = await this.deps.media.ffmpeg(
        ['-v', 'error', '-i', file, '-ac', '1', '-ar', String(rate), '-f', 'f32le', '-'],
        {
          timeoutMs: this.deps.mediaTimeoutMs,
          signal: context.signal,
          niceness: NICENESS,
          maxStdoutBytes: (ALIGNMENT_MAX_SECONDS + 60) * rate * 4,
        },
      );
      const samples = new Float32Array(Math.floor(stdout.length / 4));
      for (let i = 0; i < samples.length; i++) samples[i] = stdout.readFloatLE(i * 4);
      if (samples.length < rate) throw new UnreadableAudio('under a second decoded');
      return samples;
    } finally {
      if (work) await fsp.rm(work, { recursive: true, force: true });
    }
  }

  /**
   * What each comment of the branch's earlier versions becomes on `versionId`: mapped through
   * the alignment of each step (version k onto k+1, and so on). A step not aligned yet is started
   * and the comment keeps its old times (`aligned: false`) until it is.
   */
  async carrierTo(versionId: string): Promise<Carrier> {
    const chain = await this.deps.repo.chainTo(versionId);
    const rows = await this.deps.repo.among(chain.map((v) => v.id));
    const steps: (AlignmentSegment[] | null)[] = [];
    for (let i = 0; i + 1 < chain.length; i++) {
      const from = chain[i]?.id as string;
      const to = chain[i + 1]?.id as string;
      const row =
        rows.find((r) => r.status === 'ready' && sameWay(r, from, to)) ??
        rows.find((r) => r.status === 'ready' && sameWay(r, to, from)) ??
        rows.find((r) => sameWay(r, from, to) || sameWay(r, to, from));
      if (row?.status === 'ready') {
        const segments = parseJson<AlignmentSegment[]>(row.segments, []);
        steps.push(row.from_version_id === from ? segments : inverted(segments));
      } else {
        steps.push(null);
        // Nothing there (a version between was deleted, or an old branch): start it now.
        if (!row || this.startsAgain(row)) await this.request(from, to);
      }
    }
    const index = new Map(chain.map((v, i) => [v.id, i]));
    return (comment) => {
      const carried: Carried = {
        from_version_number: comment.version_number,
        from_timestamp: comment.timestamp,
        from_end_timestamp: comment.end_timestamp,
        status: 'moved',
        aligned: true,
      };
      const unmoved = { timestamp: comment.timestamp, end_timestamp: comment.end_timestamp };
      const start = index.get(comment.version_id);
      if (start === undefined) return { ...unmoved, carried: { ...carried, aligned: false } };
      // A comment on the whole version (no time) stays without one.
      if (comment.timestamp === null) return { ...unmoved, carried };
      let times: { timestamp: number; end_timestamp: number | null } | null = {
        timestamp: comment.timestamp,
        end_timestamp: comment.end_timestamp,
      };
      for (let i = start; i < steps.length; i++) {
        const segments = steps[i];
        if (segments === undefined || segments === null)
          return { ...unmoved, carried: { ...carried, aligned: false } };
        times = mapTimes(segments, times.timestamp, times.end_timestamp);
        if (!times) {
          return {
            timestamp: null,
            end_timestamp: null,
            carried: { ...carried, status: 'removed' },
          };
        }
      }
      return { ...times, carried };
    };
  }
}

class UnreadableAudio extends Error {
  override name = 'UnreadableAudio';
}

function sameWay(row: VersionAlignmentsTable, from: string, to: string): boolean {
  return row.from_version_id === from && row.to_version_id === to;
}

/** What a pair not ready says: pending, or failed with why. */
function notReady(row: VersionAlignmentsTable | string): {
  status: 'pending' | 'failed';
  error: string | null;
} {
  if (row === 'pending') return { status: 'pending', error: null };
  if (typeof row === 'string') return { status: 'failed', error: row };
  if (row.status === 'failed')
    return { status: 'failed', error: row.error ?? ALIGNMENT_MESSAGES.failed };
  return { status: 'pending', error: null };
}
