import fsp from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { MAX_UPLOAD_BYTES, PROJECT_MESSAGES } from '@takes/contract';
import type { Clock } from '../../clock';
import { Invalid, NotFound, TooLarge } from '../../errors';
import { BRANCH_MISSING, checkUploadTarget, type UploadFields } from '../uploads';
import { processVersionJob } from '../audio/jobs';
import type { JobQueue } from '../../jobs/job-queue';
import { titleFromFileName } from '../../media/file-name';
import type { MediaRunner } from '../../media/runner';
import { isUniqueViolation } from '../../db/unique-violation';
import type { ObjectStore } from '../../storage/object-store';
import { isTooLarge, streamToScratch, type ScratchFile } from '../../storage/scratch-file';
import {
  deleteOriginalIfUnused,
  recordOriginalRef,
  releaseOriginalRef,
  takeInOriginal,
} from '../audio';
import { spendDemoUpload, uploadLimitFor } from '../demo/demo-policy';
import type { ProjectsService } from '../projects';
import type { Executor, VersionsRepo } from './versions.repo';
import type { AccessPolicy } from '../access';
import type { ActivityLog } from '../activity';
import type { StorageQuotas } from '../quotas';

export interface ReceivedFile extends ScratchFile {
  fileName: string;
  /** Whose upload quota the version made from it counts against (none for the demo's sample). */
  uploaderId?: string | undefined;
  /** The storage quota's hold for this upload while it is in flight (see StorageQuotas). */
  reservationId?: string | undefined;
}

export type { UploadFields };

export interface UploadResult {
  version_id: string;
  project_id: string;
  branch_id: string;
  file_url: string;
  file: { url: string };
  waveform: null;
  metadata: Record<string, unknown>;
}

/**
 * Receives an upload (streamed to a scratch file while counting, hashing and keeping its
 * first bytes), checks it is audio by content, stores the original under its SHA-256 and
 * creates the version and its processing job in one transaction. On any failure nothing
 * is left: no row, no object that was not there before.
 */
export class UploadService {
  private readonly versionsRepo: VersionsRepo;

  constructor(
    private readonly deps: {
      access: AccessPolicy;
      /** Read by the demo's upload limits (demo-policy takes the database itself). */
      db: Executor;
      repo: VersionsRepo;
      storage: ObjectStore;
      jobs: JobQueue;
      media: MediaRunner;
      clock: Clock;
      tmpDir: string;
      mediaTimeoutMs: number;
      projects: ProjectsService;
      activity: ActivityLog;
      /** Refuses an upload that would take the project owner's storage over their quota. */
      quotas: StorageQuotas;
      /** 500 MB (MAX_UPLOAD_BYTES) unless a test asks for less. */
      maxBytes?: number;
      /**
       * A test seam: runs once the original is stored and before the version is created, the
       * moment a clean-up of the same original must not take it away.
       */
      afterOriginalStored?: (key: string) => Promise<void>;
    },
  ) {
    this.versionsRepo = deps.repo;
  }

  /**
   * Streams one file part to a scratch file; refuses it past the (uploader's) size limit as it
   * arrives. With `declared` (the request's Content-Length and the fields read so far), the
   * storage quota is asked first and the declared bytes held while the file streams.
   */
  async receive(
    stream: Readable,
    fileName: string,
    uploaderId?: string,
    declared?: { bytes: number; fields: UploadFields },
  ): Promise<ReceivedFile> {
    const limit = await uploadLimitFor(
      this.deps.db,
      uploaderId,
      this.deps.maxBytes ?? MAX_UPLOAD_BYTES,
      { needsQuota: true },
    );
    let reservationId: string | undefined;
    try {
      if (declared && uploaderId) {
        const holder = await this.earlyHolder(uploaderId, declared.fields);
        if (holder)
          reservationId = (await this.deps.quotas.reserve(holder, declared.bytes, { uploaderId }))
            ?.id;
      }
      const file = await streamToScratch(stream, {
        dir: this.deps.tmpDir,
        prefix: 'upload',
        maxBytes: limit.maxBytes,
      });
      return { ...file, fileName, uploaderId, reservationId };
    } catch (error) {
      await this.deps.quotas.release(reservationId);
      if (isTooLarge(error)) throw new TooLarge(limit.tooLarge);
      throw error;
    }
  }

  /**
   * Whose quota the declared size is checked against before the file streams: the uploader's
   * for a new track, the project owner's for a branch the uploader may upload to; undefined
   * when that is not known yet (the check with the real size follows in createVersion).
   */
  private async earlyHolder(userId: string, fields: UploadFields): Promise<string | undefined> {
    if (!fields.project_id && !fields.branch_id) return userId;
    if (!fields.project_id || !fields.branch_id) return undefined;
    try {
      const branch = await this.deps.access.branch(userId, fields.branch_id, 'upload');
      if (branch.projectId !== fields.project_id) return undefined;
    } catch {
      return undefined;
    }
    return (await this.deps.quotas.projectOwner(fields.project_id)) ?? undefined;
  }

  async discard(file: ReceivedFile | undefined): Promise<void> {
    if (!file) return;
    await this.deps.quotas.release(file.reservationId);
    await fsp.rm(file.path, { force: true });
  }

  /**
   * A new version of a branch (the caller needs 'upload' on its project), or without project and
   * branch a new track: a project of the caller's own with its first version.
   */
  async createVersion(
    userId: string,
    file: ReceivedFile | undefined,
    fields: UploadFields,
  ): Promise<UploadResult> {
    if (!file || file.size === 0) throw new Invalid(PROJECT_MESSAGES.fileRequired);
    const asked = await checkUploadTarget(this.deps.access, userId, fields);
    // Checked again with the real size, against the owner's quota, before anything is stored.
    const holder = asked.newTrack
      ? userId
      : ((await this.deps.quotas.projectOwner(asked.projectId)) ?? userId);
    const reservation = await this.deps.quotas.reserve(holder, file.size, {
      id: file.reservationId,
      uploaderId: userId,
    });

    // The upload's own reference to the original, until the version is its lasting one.
    const held: { refId?: string; key?: string } = {};
    try {
      const {
        key: originalKey,
        format,
        metadata,
      } = await takeInOriginal(this.deps, file, async (key) => {
        held.refId = await recordOriginalRef(this.deps.db, this.deps.clock, key);
        held.key = key;
      });
      const refId = held.refId as string;
      await this.deps.afterOriginalStored?.(originalKey);
      const now = this.deps.clock.now().toISOString();
      const versionId = randomUUID();
      const { projectId, branchId } = await this.inTransactionWithRetry(async (trx) => {
        let target: { projectId: string; branchId: string };
        if (asked.newTrack) {
          const name =
            fields.project_name?.trim() || titleFromFileName(file.fileName) || 'Untitled Track';
          target = await this.deps.projects.createInside(trx, userId, {
            name,
            description: fields.project_description?.trim() || null,
            is_private: fields.is_private !== 'false',
          });
        } else {
          // Checked again inside the transaction: the branch may have gone meanwhile.
          const branch = await this.deps.projects.branchById(asked.branchId, trx);
          if (!branch || branch.project_id !== asked.projectId) throw new NotFound(BRANCH_MISSING);
          target = { projectId: branch.project_id, branchId: branch.id };
        }
        await this.versionsRepo.insert(
          {
            id: versionId,
            project_id: target.projectId,
            branch_id: target.branchId,
            version_number: await this.versionsRepo.nextNumber(target.branchId, trx),
            message: fields.commit_message?.trim() || null,
            tags: JSON.stringify(asked.tags),
            original_key: originalKey,
            original_name: file.fileName.slice(0, 255),
            original_size: file.size,
            original_format: format,
            status: 'processing',
            error: null,
            metadata: JSON.stringify(metadata),
            waveform: null,
            loudness: null,
            renditions: '{}',
            review_status: 'in_review',
            file_url: null,
            created_at: now,
            updated_at: now,
          },
          trx,
        );
        // The version is now the lasting reference; the upload's own goes with it.
        await releaseOriginalRef(trx, refId);
        // The version's bytes now count as used: the upload's hold goes in the same commit.
        await this.deps.quotas.release(reservation?.id, trx);
        await this.deps.activity.recordForVersion(trx, versionId, {
          kind: 'version.uploaded',
          actor: { userId },
        });
        await this.deps.projects.touch(target.projectId, now, trx);
        if (file.uploaderId) await spendDemoUpload(trx, file.uploaderId);
        await this.deps.jobs.enqueue(processVersionJob, { versionId }, { executor: trx });
        return target;
      });
      this.deps.jobs.notify();
      const url = `/api/versions/${versionId}/stream`;
      return {
        version_id: versionId,
        project_id: projectId,
        branch_id: branchId,
        file_url: url,
        file: { url },
        waveform: null,
        metadata: { ...metadata, format, size: file.size },
      };
    } catch (error) {
      await this.deps.quotas.release(reservation?.id);
      // Nothing left behind: the reference goes, and the original too unless anything
      // (a version, a bounce, an upload of either in flight) still uses it.
      if (held.refId && held.key) {
        await releaseOriginalRef(this.deps.db, held.refId);
        await deleteOriginalIfUnused(this.deps.db, this.deps.storage, held.key);
      }
      throw error;
    }
  }

  /** Two uploads to one branch can pick the same number; the unique key refuses one, which retries. */
  private async inTransactionWithRetry<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.versionsRepo.transaction(work);
      } catch (error) {
        if (attempt >= 5 || !isUniqueViolation(error)) throw error;
      }
    }
  }
}
