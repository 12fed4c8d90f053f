import fsp from 'node:fs/promises';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  MAX_UPLOAD_BYTES,
  PROJECT_MESSAGES,
  PUBLISH_TOKEN_TTL_MS,
  REPO_MESSAGES,
  type Bounce,
  type PublishResponse,
} from '@takes/contract';
import type { Clock } from '../../clock';
import type { BounceUploadsTable } from '../../db/schema';
import { Conflict, Forbidden, Gone, Invalid, NotFound, TooLarge, Unsupported } from '../../errors';
import { expireUploadJob } from './jobs';
import { processBounceJob } from '../audio/jobs';
import type { JobQueue } from '../../jobs/job-queue';
import { AUDIO_MIME, sniffAudioSource } from '../../media/audio-type';
import { titleFromFileName } from '../../media/file-name';
import type { MediaRunner } from '../../media/runner';
import type { ObjectStore } from '../../storage/object-store';
import { isTooLarge, streamToScratch } from '../../storage/scratch-file';
import { deleteOriginalIfUnused, lockOriginal, takeInOriginal } from '../audio';
import { spendDemoUpload, uploadLimitFor } from '../demo/demo-policy';
import { insertPublishedBounce } from './bounce-rows';
import type { BouncesService } from './bounces.service';
import type { HistoryService } from './history.service';
import type { PublishRepo } from './publish.repo';
import type { Executor, ReposRepo } from './repos.repo';
import { expireUpload } from './upload-expiry';
import type { AccessPolicy } from '../access';
import type { ActivityLog } from '../activity';
import type { StorageQuotas } from '../quotas';

export interface PublishDeps {
  access: AccessPolicy;
  /** Read by the demo's upload limits (demo-policy takes the database itself). */
  db: Executor;
  uploads: PublishRepo;
  repo: ReposRepo;
  storage: ObjectStore;
  jobs: JobQueue;
  media: MediaRunner;
  clock: Clock;
  tmpDir: string;
  mediaTimeoutMs: number;
  publicUrl: string;
  history: HistoryService;
  bounces: BouncesService;
  /** Records 'bounce.published' in the completing transaction. */
  activity: ActivityLog;
  /** A bounce counts in the repository owner's storage: refused past their quota. */
  quotas: StorageQuotas;
  /** 500 MB (MAX_UPLOAD_BYTES) unless a test asks for less. */
  maxBytes?: number | undefined;
}

/** The clean-up runs this long after a token expires (an upload in flight may still finish). */
const EXPIRY_GRACE_MS = 5 * 60 * 1000;

/**
 * Publishing a bounce: publish (a single-use upload token valid 15 minutes), PUT of the raw
 * file (streamed to scratch while counted, hashed and checked by content, then stored under
 * its SHA-256), complete (the stored object checked again, the bounce created on its commit
 * and its processing queued in one transaction). An abandoned publish is removed by a job.
 */
export class PublishService {
  constructor(private readonly deps: PublishDeps) {}

  private get maxBytes(): number {
    return this.deps.maxBytes ?? MAX_UPLOAD_BYTES;
  }

  /** Starts a publish: the caller needs 'publish' (Editor) on the repository. */
  async publish(
    userId: string,
    input: {
      repo_id: string;
      branch: string;
      filename: string;
      content_type?: string | undefined;
      commit_sha?: string | undefined;
      size?: number | undefined;
    },
  ): Promise<PublishResponse> {
    await this.deps.access.repository(userId, input.repo_id, 'publish');
    // The upload is the caller's: their own (demo) limits apply, not the owner's.
    const limit = await uploadLimitFor(this.deps.db, userId, this.maxBytes, { needsQuota: true });
    if (input.size !== undefined && input.size > limit.maxBytes) throw new TooLarge(limit.tooLarge);
    if (input.commit_sha) {
      const commit = await this.deps.repo.commitBySha(input.repo_id, input.commit_sha);
      if (!commit) throw new NotFound(REPO_MESSAGES.commitNotFound);
    }
    const token = randomBytes(32).toString('base64url');
    const id = randomUUID();
    // A declared size is held against the owner's storage quota now, under the upload's id.
    if (input.size !== undefined) await this.holdQuota(input.repo_id, id, input.size, userId);
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + PUBLISH_TOKEN_TTL_MS).toISOString();
    await this.startUpload(id, async (trx) => {
      await this.deps.uploads.insertUpload(
        {
          id,
          // Who started it: the token is theirs, and only they can complete it.
          owner_id: userId,
          repo_id: input.repo_id,
          branch: input.branch,
          filename: input.filename,
          content_type: input.content_type ?? null,
          commit_sha: input.commit_sha ?? null,
          token_hash: hashToken(token),
          status: 'pending',
          object_key: null,
          size: null,
          sha256: null,
          format: null,
          metadata: null,
          expires_at: expiresAt,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        },
        trx,
      );
      await spendDemoUpload(trx, userId);
      await this.deps.jobs.enqueue(
        expireUploadJob,
        { uploadId: id },
        { executor: trx, delayMs: PUBLISH_TOKEN_TTL_MS + EXPIRY_GRACE_MS },
      );
    });
    return {
      upload_id: id,
      upload_url: `${this.deps.publicUrl}/api/bounces/uploads/${id}`,
      upload_token: token,
      expires_at: expiresAt,
      max_bytes: limit.maxBytes,
    };
  }

  /**
   * Receives the PUT body. The token is the authorisation (single use, 15 minutes), on behalf of
   * the person who started the publish: they must still hold 'publish' on the repository.
   */
  async receive(
    uploadId: string,
    token: string | undefined,
    body: Readable,
    declaredLength: number | undefined,
  ): Promise<{ upload_id: string; size: number }> {
    const uploads = this.deps.uploads;
    const upload = await uploads.upload(uploadId);
    if (!upload) throw new NotFound('Upload not found');
    if (!token) throw new Invalid(REPO_MESSAGES.tokenMissing);
    if (!tokenMatches(token, upload.token_hash)) throw new Forbidden(REPO_MESSAGES.tokenInvalid);
    if (upload.status !== 'pending') throw new Conflict(REPO_MESSAGES.tokenUsed);
    const now = this.deps.clock.now().toISOString();
    if (upload.expires_at <= now) throw new Gone(REPO_MESSAGES.tokenExpired);
    await this.deps.access.repository(upload.owner_id, upload.repo_id, 'publish');
    // Claimed atomically: of two requests with the same token only one gets past here.
    if (
      !(await uploads.updateUploadIf(uploadId, 'pending', { status: 'receiving', updated_at: now }))
    )
      throw new Conflict(REPO_MESSAGES.tokenUsed);

    let scratch: string | undefined;
    let referenced: string | undefined;
    const limit = await uploadLimitFor(this.deps.db, upload.owner_id, this.maxBytes);
    try {
      if (declaredLength !== undefined && declaredLength > limit.maxBytes)
        throw new TooLarge(limit.tooLarge);
      if (declaredLength !== undefined)
        await this.holdQuota(upload.repo_id, uploadId, declaredLength, upload.owner_id);
      const file = await streamToScratch(body, {
        dir: this.deps.tmpDir,
        prefix: 'bounce',
        maxBytes: limit.maxBytes,
      });
      scratch = file.path;
      if (file.size === 0) throw new Invalid(PROJECT_MESSAGES.fileRequired);
      // The real size, before the original is stored.
      await this.holdQuota(upload.repo_id, uploadId, file.size, upload.owner_id);
      // The upload row refers to the original before we look whether it exists (under the
      // key's lock, as the clean-up counts): an object seen now stays, a missing one is put.
      const { format, metadata } = await takeInOriginal(this.deps, file, async (key) => {
        const recorded = await this.deps.repo.transaction(async (trx) => {
          await lockOriginal(trx, key);
          return uploads.updateUploadIf(uploadId, 'receiving', { object_key: key }, trx);
        });
        if (!recorded) throw new Gone(REPO_MESSAGES.tokenExpired);
        referenced = key;
      });
      const key = referenced as string;
      const saved = await uploads.updateUploadIf(uploadId, 'receiving', {
        status: 'uploaded',
        object_key: key,
        size: file.size,
        sha256: file.sha256,
        format,
        metadata: JSON.stringify(metadata),
        updated_at: this.deps.clock.now().toISOString(),
      });
      // Cleaned up while the body was arriving (it took longer than the token lives).
      if (!saved) throw new Gone(REPO_MESSAGES.tokenExpired);
      return { upload_id: uploadId, size: file.size };
    } catch (error) {
      // A refused upload leaves nothing: no pending row, and its original only if still used.
      await uploads.deleteUpload(uploadId);
      await this.deps.quotas.release(uploadId);
      if (referenced) await this.deleteIfUnused(referenced);
      if (isTooLarge(error)) throw new TooLarge(limit.tooLarge);
      throw error;
    } finally {
      if (scratch) await fsp.rm(scratch, { force: true });
    }
  }

  /**
   * Completes the caller's own upload. The policy is asked again here, so a member removed (or
   * made Viewer) after starting the publish is refused.
   */
  async complete(
    userId: string,
    input: {
      repo_id: string;
      branch: string;
      title?: string | undefined;
      filename: string;
      mime?: string | undefined;
      size?: number | undefined;
      upload_id?: string | undefined;
    },
  ): Promise<Bounce> {
    await this.deps.access.repository(userId, input.repo_id, 'publish');
    const upload = await this.deps.uploads.completableUpload(
      userId,
      input.repo_id,
      input.upload_id
        ? { uploadId: input.upload_id }
        : { branch: input.branch, filename: input.filename },
    );
    if (!upload?.object_key) throw new NotFound(REPO_MESSAGES.uploadNotFound);
    if (input.size !== undefined && input.size !== Number(upload.size))
      throw new Invalid(REPO_MESSAGES.sizeMismatch);
    await this.checkStored(upload);

    const title = input.title?.trim() || titleFromFileName(input.filename) || 'Bounce';
    const bounceId = randomUUID();
    const repo = this.deps.repo;
    await repo.transaction(async (trx) => {
      const now = this.deps.clock.now().toISOString();
      // Only one complete per upload, however many arrive at once.
      const taken = await this.deps.uploads.updateUploadIf(
        upload.id,
        'uploaded',
        { status: 'completed', updated_at: now },
        trx,
      );
      if (!taken) throw new NotFound(REPO_MESSAGES.uploadNotFound);
      const format = upload.format ?? 'wav';
      await insertPublishedBounce(this.deps, trx, {
        repoId: input.repo_id,
        branchName: upload.commit_sha ? upload.branch : input.branch,
        commitSha: upload.commit_sha,
        committerId: userId,
        actor: { userId },
        bounce: {
          id: bounceId,
          title,
          filename: input.filename,
          mime: AUDIO_MIME[format as keyof typeof AUDIO_MIME] ?? input.mime ?? 'audio/wav',
          original_key: upload.object_key as string,
          original_size: Number(upload.size),
          original_format: format,
          status: 'processing',
          error: null,
          metadata: upload.metadata,
          waveform: null,
          loudness: null,
          renditions: '{}',
          created_at: now,
          updated_at: now,
        },
      });
      await this.deps.jobs.enqueue(processBounceJob, { bounceId }, { executor: trx });
      // The bounce's bytes now count as used: the upload's hold goes in the same commit.
      await this.deps.quotas.release(upload.id, trx);
    });
    this.deps.jobs.notify();
    return this.deps.bounces.bounceById(userId, bounceId);
  }

  /** Records the upload; refused (a demo's uploads used up), its quota hold goes too. */
  private async startUpload(id: string, work: (trx: Executor) => Promise<void>): Promise<void> {
    try {
      await this.deps.repo.transaction(work);
    } catch (error) {
      await this.deps.quotas.release(id);
      throw error;
    }
  }

  /** Holds `bytes` of the repository owner's quota for the upload `id` (413 when over). */
  private async holdQuota(
    repoId: string,
    id: string,
    bytes: number,
    uploaderId: string,
  ): Promise<void> {
    const owner = await this.deps.quotas.repoOwner(repoId);
    if (owner)
      await this.deps.quotas.reserve(owner, bytes, {
        id,
        ttlMs: PUBLISH_TOKEN_TTL_MS + EXPIRY_GRACE_MS,
        uploaderId,
      });
  }

  /** The clean-up job's work (see expireUpload). */
  expire(uploadId: string): Promise<void> {
    return expireUpload(this.deps, uploadId);
  }

  /** The stored object must still be there, the same size and audio by its first bytes. */
  private async checkStored(upload: BounceUploadsTable): Promise<void> {
    const key = upload.object_key as string;
    const info = await this.deps.storage.head(key);
    if (!info || info.size !== Number(upload.size))
      throw new NotFound(REPO_MESSAGES.uploadNotFound);
    const size = info.size;
    const format = await sniffAudioSource(async (start, length) => {
      const end = Math.min(start + length, size) - 1;
      if (end < start) return Buffer.alloc(0);
      const { body } = await this.deps.storage.get(key, { start, end });
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    });
    if (!format) throw new Unsupported(PROJECT_MESSAGES.invalidType);
  }

  private async deleteIfUnused(key: string): Promise<void> {
    await deleteOriginalIfUnused(this.deps.db, this.deps.storage, key);
  }
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function tokenMatches(token: string, expectedHash: string): boolean {
  const given = Buffer.from(hashToken(token), 'hex');
  const expected = Buffer.from(expectedHash, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
