import { randomUUID } from 'node:crypto';
import {
  AUDIO_QUALITIES,
  PROJECT_MESSAGES,
  type ProcessingResponse,
  type Version,
} from '@takes/contract';
import type { Clock } from '../../clock';
import type { JobQueue } from '../../jobs/job-queue';
import type { VersionsTable } from '../../db/schema';
import { AppError, Internal, NotFound } from '../../errors';
import { toProjectSummary, type ProjectsService } from '../projects';
import {
  downloadOf,
  parseJson,
  pickAudio,
  queueVersionsCleanup,
  type Quality,
  type Renditions,
  type StoredAudio,
  type WaveformInfo,
} from '../audio';
import { toListedVersion, toVersion } from './version-view';
import type { VersionsRepo } from './versions.repo';
import { NOT_FOUND, type AccessPolicy, type Action } from '../access';
import type { ActivityLog } from '../activity';

/** Said for a branch the caller cannot upload to, or one not in the named project. */
const BRANCH_MISSING = 'Project or branch not found';

export interface VersionsDeps {
  access: AccessPolicy;
  repo: VersionsRepo;
  clock: Clock;
  jobs: JobQueue;
  projects: ProjectsService;
  activity: ActivityLog;
}

/**
 * Versions of a project's branches: reading, creating from a URL, deleting, and their audio.
 * Every method asks the access policy first (view, listen, download, upload, editVersions).
 */
export class VersionsService {
  private readonly repo: VersionsRepo;

  constructor(private readonly deps: VersionsDeps) {
    this.repo = deps.repo;
  }

  /** One version with its project, as the caller sees it (their role included). */
  async getWithProject(userId: string, versionId: string) {
    const { role } = await this.deps.access.version(userId, versionId, 'view');
    const found = await this.repo.findWithProject(versionId);
    if (!found) throw new NotFound(NOT_FOUND.version);
    return { ...toVersion(found.version), project: toProjectSummary(found.project, role) };
  }

  async listForBranch(userId: string, projectId: string, branchId: string): Promise<Version[]> {
    const branch = await this.deps.access.branch(userId, branchId, 'view');
    if (branch.projectId !== projectId) throw new NotFound(NOT_FOUND.branch);
    return this.ofBranches([branchId]);
  }

  /**
   * The versions of these branches, newest number first. Public for the projects module's
   * branch listing, so the query lives once, here.
   */
  async ofBranches(branchIds: string[]): Promise<Version[]> {
    return (await this.repo.listForBranches(branchIds)).map(toListedVersion);
  }

  /** The newest versions across the projects the user owns or is a member of. */
  async recent(userId: string, limit: number) {
    const rows = await this.repo.recent(userId, limit);
    return rows.map((r) => ({
      id: r.id,
      title: `${r.project_name} - Version ${r.version_number}`,
      message: r.message,
      created_at: r.created_at,
      project_id: r.project_id,
      project_name: r.project_name,
    }));
  }

  /** Deletes a version (editor) with its links, comments and, once unused, its stored audio. */
  async delete(userId: string, versionId: string): Promise<void> {
    await this.deps.access.version(userId, versionId, 'editVersions');
    await this.repo.transaction(async (trx) => {
      const version = await this.repo.find(versionId, trx);
      if (!version) throw new NotFound(NOT_FOUND.version);
      await this.deps.activity.recordForVersion(trx, versionId, {
        kind: 'version.deleted',
        actor: { userId },
      });
      await this.repo.delete(versionId, trx);
      await this.deps.projects.touch(version.project_id, this.now(), trx);
      await queueVersionsCleanup(trx, this.deps, [version]);
    });
  }

  /** POST /versions/create: a version pointing at a file URL given by the client (editor). */
  async createFromUrl(
    userId: string,
    input: {
      project_id: string;
      branch_id: string;
      message: string;
      file_url: string;
      tags?: string[] | undefined;
    },
  ): Promise<Version> {
    const target = await this.deps.access.branch(userId, input.branch_id, 'upload', BRANCH_MISSING);
    if (target.projectId !== input.project_id) throw new NotFound(BRANCH_MISSING);
    const id = randomUUID();
    const now = this.now();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.repo.transaction(async (trx) => {
          // Read again inside the transaction: the branch may have gone meanwhile.
          const branch = await this.deps.projects.branchById(input.branch_id, trx);
          if (!branch || branch.project_id !== input.project_id) throw new NotFound(BRANCH_MISSING);
          await this.repo.insert(
            {
              id,
              project_id: branch.project_id,
              branch_id: branch.id,
              version_number: await this.repo.nextNumber(branch.id, trx),
              message: input.message || 'New version',
              tags: JSON.stringify(input.tags ?? []),
              original_key: null,
              original_name: null,
              original_size: null,
              original_format: null,
              status: 'completed',
              error: null,
              metadata: null,
              waveform: null,
              loudness: null,
              renditions: '{}',
              review_status: 'in_review',
              file_url: input.file_url,
              created_at: now,
              updated_at: now,
            },
            trx,
          );
          await this.deps.activity.recordForVersion(trx, id, {
            kind: 'version.uploaded',
            actor: { userId },
          });
          await this.deps.projects.touch(branch.project_id, now, trx);
        });
        break;
      } catch (error) {
        if (error instanceof AppError) throw error;
        if (attempt >= 5) throw new Internal(PROJECT_MESSAGES.createVersionFailed);
      }
    }
    const row = await this.repo.find(id);
    if (!row) throw new Internal(PROJECT_MESSAGES.createVersionFailed);
    return toVersion(row);
  }

  async processing(userId: string, versionId: string): Promise<ProcessingResponse> {
    const v = await this.allowed(userId, versionId, 'view');
    const renditions = parseJson<Renditions>(v.renditions, {});
    const hasMetadata = v.metadata !== null;
    const hasWaveform = v.waveform !== null;
    const hasOriginal = v.original_key !== null;
    const stages = [
      hasMetadata,
      hasOriginal,
      !!renditions.high,
      !!renditions.standard,
      hasWaveform,
    ];
    const done = v.status === 'completed';
    return {
      status: v.status,
      progress_percentage: done
        ? 100
        : Math.round((stages.filter(Boolean).length / stages.length) * 100),
      has_metadata: hasMetadata,
      has_waveform: hasWaveform,
      processing_complete: done,
      error: v.error,
      quality_progress: {
        original: { available: hasOriginal, file_size: v.original_size, format: v.original_format },
        ...(renditions.lossless
          ? { lossless: { available: true, file_size: renditions.lossless.size } }
          : {}),
        high: { available: !!renditions.high, file_size: renditions.high?.size ?? null },
        standard: {
          available: !!renditions.standard,
          file_size: renditions.standard?.size ?? null,
        },
      },
    };
  }

  async qualities(userId: string, versionId: string) {
    const v = await this.allowed(userId, versionId, 'view');
    const renditions = parseJson<Renditions>(v.renditions, {});
    const qualities: Partial<Record<Quality, { file_size: number; format: string }>> = {};
    if (v.original_key)
      qualities.original = {
        file_size: v.original_size ?? 0,
        format: v.original_format ?? 'unknown',
      };
    if (renditions.lossless)
      qualities.lossless = { file_size: renditions.lossless.size, format: 'flac' };
    if (renditions.high) qualities.high = { file_size: renditions.high.size, format: 'mp3' };
    if (renditions.standard)
      qualities.standard = { file_size: renditions.standard.size, format: 'mp3' };
    return {
      available: AUDIO_QUALITIES.filter((q) => qualities[q]),
      qualities,
    };
  }

  /**
   * The stored object to stream for a quality; the original serves until renditions exist.
   * Checked and found in one query (every Range request of a player comes here).
   */
  async audio(userId: string, versionId: string, quality: Quality): Promise<StoredAudio> {
    return pickAudio(
      (await this.deps.access.versionAudio(userId, versionId, 'listen')).audio,
      quality,
    );
  }

  /**
   * `audio` for a cookie session's token, the session read in the same statement as the version
   * (a player's Range requests come here). `live` judges the session row: undefined when it is
   * one better-auth must see first (expired, or due for renewal). Answers null when the token
   * names no session, undefined when `live` said so; the caller then authenticates the usual way.
   */
  async audioForSession<U>(
    token: string,
    versionId: string,
    quality: Quality,
    live: (row: { user_id: string; email: string; expires_at: string | Date }) => U | undefined,
  ): Promise<{ user: U; audio: StoredAudio } | null | undefined> {
    const row = await this.deps.access.sessionVersionAudio(token, versionId);
    if (!row) return null;
    const user = live(row);
    if (user === undefined) return undefined;
    return {
      user,
      audio: pickAudio(this.deps.access.versionAudioOf(row, 'listen').audio, quality),
    };
  }

  /** The original, named after its project: the project name, a dash, the first 8 characters of the version id, its extension. */
  async download(userId: string, versionId: string): Promise<StoredAudio & { fileName: string }> {
    await this.deps.access.version(userId, versionId, 'download');
    const found = await this.repo.findWithProject(versionId);
    if (!found) throw new NotFound(NOT_FOUND.version);
    return downloadOf(found.version, found.project.name);
  }

  /** Detailed min/max peaks for zooming (stored as an object by processing). */
  async peaksKey(userId: string, versionId: string): Promise<string> {
    const v = await this.allowed(userId, versionId, 'listen');
    const waveform = parseJson<WaveformInfo | null>(v.waveform, null);
    if (!waveform) throw new NotFound('The waveform is not ready yet');
    return waveform.peaksKey;
  }

  /** The version, once the policy lets the caller do `action` to it. */
  private async allowed(userId: string, versionId: string, action: Action): Promise<VersionsTable> {
    await this.deps.access.version(userId, versionId, action);
    const v = await this.repo.find(versionId);
    if (!v) throw new NotFound(NOT_FOUND.version);
    return v;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
