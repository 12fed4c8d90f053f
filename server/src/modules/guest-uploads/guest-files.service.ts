import {
  UPLOAD_LINK_MESSAGES,
  type AcceptedGuestFile,
  type GuestFilesResponse,
} from '@takes/contract';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import type { VersionsTable } from '../../db/schema';
import { isUniqueViolation } from '../../db/unique-violation';
import { Conflict, NotFound } from '../../errors';
import type { JobQueue } from '../../jobs/job-queue';
import type { Mailer } from '../../mail/mailer';
import { mailText } from '../../mail/mail-text';
import { may, type AccessPolicy } from '../access';
import type { ActivityLog } from '../activity';
import {
  ownedAudioKeys,
  pickAudio,
  previewOf,
  queueCleanup,
  type Quality,
  type StoredAudio,
} from '../audio';
import { toGuestFile } from './guest-uploads.presenter';
import type { Executor, GuestFileRow, GuestUploadsRepo } from './guest-uploads.repo';

const NOT_FOUND = UPLOAD_LINK_MESSAGES.fileNotFound;

/** How a version is numbered and written (the versions module's, handed in by createServices). */
export interface VersionWriter {
  nextNumber(branchId: string, db: Executor): Promise<number>;
  insert(row: VersionsTable, db: Executor): Promise<void>;
}

export interface GuestFilesDeps {
  access: AccessPolicy;
  repo: GuestUploadsRepo;
  versions: VersionWriter;
  clock: Clock;
  jobs: JobQueue;
  activity: ActivityLog;
  limiter: RateLimiter;
  mailer: Mailer;
  /** Marks the project updated (the projects module's). */
  touchProject: (projectId: string, at: string, db: Executor) => Promise<void>;
  /** Work that follows a new processed version (its alignment with the one before it). */
  afterAccepted?: (versionId: string) => Promise<void>;
}

/**
 * The team's side of the files guests sent: listed and played by members who may listen,
 * accepted ('Add as Version N') or declined by whoever may upload (Editor and up). Accepting
 * makes the version, numbered then, from the file's stored audio in one transaction: the
 * version keeps the file's id, so its renditions and peaks (keyed by row id) are its own.
 */
export class GuestFilesService {
  constructor(private readonly deps: GuestFilesDeps) {}

  private async file(userId: string, id: string, action: 'listen' | 'upload') {
    const row = await this.deps.repo.fileById(id);
    if (!row) throw new NotFound(NOT_FOUND);
    const grant = await this.deps.access.project(userId, row.project_id, action, NOT_FOUND);
    return { row, grant };
  }

  async list(
    userId: string,
    projectId: string,
    branchId: string | undefined,
  ): Promise<GuestFilesResponse> {
    const grant = await this.deps.access.project(userId, projectId, 'listen');
    const rows = await this.deps.repo.filesOf(projectId, branchId);
    const showAddress = may(grant.role, 'upload');
    let next: number | null = null;
    if (branchId) {
      const branch = await this.deps.repo.branch(branchId, this.deps.repo.executor);
      if (branch?.project_id === projectId)
        next = await this.deps.versions.nextNumber(branchId, this.deps.repo.executor);
    }
    return {
      files: rows.map((row) => toGuestFile(row, showAddress)),
      next_version_number: next,
    };
  }

  async audio(userId: string, id: string, quality: Quality): Promise<StoredAudio> {
    const { row } = await this.file(userId, id, 'listen');
    return pickAudio({ ...row, original_size: Number(row.original_size) }, quality);
  }

  async accept(userId: string, id: string, message: string | null | undefined) {
    await this.file(userId, id, 'upload');
    const accepted = await this.withRetry((trx) => this.acceptInside(trx, id, message));
    this.deps.jobs.notify();
    if (this.deps.afterAccepted) await this.deps.afterAccepted(id).catch(() => undefined);
    if (accepted.email) await this.thank(userId, accepted.file).catch(() => undefined);
    return accepted.result;
  }

  private async acceptInside(
    trx: Executor,
    id: string,
    message: string | null | undefined,
  ): Promise<{ result: AcceptedGuestFile; email: boolean; file: GuestFileRow }> {
    const row = await this.deps.repo.fileById(id, trx);
    if (!row) throw new NotFound(NOT_FOUND);
    if (row.status === 'processing')
      throw new Conflict(UPLOAD_LINK_MESSAGES.stillProcessing, { code: 'version_processing' });
    if (row.status !== 'completed') throw new Conflict(UPLOAD_LINK_MESSAGES.failedCannotAccept);
    const number = await this.deps.versions.nextNumber(row.branch_id, trx);
    const now = this.deps.clock.now().toISOString();
    // The file's row goes and the version (same id, same stored audio) comes in one step; a
    // decline that got there first (and queued its audio's removal) wins.
    if (!(await this.deps.repo.deleteFile(row.id, trx))) throw new NotFound(NOT_FOUND);
    await this.deps.versions.insert(
      {
        id: row.id,
        project_id: row.project_id,
        branch_id: row.branch_id,
        version_number: number,
        message: message?.trim() || null,
        tags: '[]',
        original_key: row.original_key,
        original_name: row.original_name,
        original_size: Number(row.original_size),
        original_format: row.original_format,
        status: 'completed',
        error: null,
        metadata: row.metadata,
        waveform: row.waveform,
        loudness: row.loudness,
        renditions: row.renditions,
        review_status: 'in_review',
        file_url: null,
        created_at: now,
        updated_at: now,
      },
      trx,
    );
    const preview = previewOf(row.waveform);
    if (preview) await this.deps.repo.insertPreview(row.id, preview, trx);
    // The guest made it; the version is theirs in the Activity ('Sam uploaded Version 2 to main').
    await this.deps.activity.recordForVersion(trx, row.id, {
      kind: 'version.uploaded',
      actor: { visitorName: row.guest_name },
    });
    await this.deps.touchProject(row.project_id, now, trx);
    return {
      result: {
        version_id: row.id,
        project_id: row.project_id,
        branch_id: row.branch_id,
        version_number: number,
      },
      email: row.guest_email !== null,
      file: row,
    };
  }

  /** Deleted with its renditions and peaks, and its original unless anything else uses it. */
  async decline(userId: string, id: string): Promise<void> {
    await this.file(userId, id, 'upload');
    await this.deps.repo.transaction(async (trx) => {
      const row = await this.deps.repo.fileById(id, trx);
      if (!row || !(await this.deps.repo.deleteFile(id, trx))) throw new NotFound(NOT_FOUND);
      await queueCleanup(trx, this.deps, {
        objects: ownedAudioKeys(row),
        originals: [row.original_key],
      });
    });
    this.deps.jobs.notify();
  }

  /**
   * The guest's one email, when their file is accepted: from the accepting person's mail budget
   * (every address Takes mails because someone typed it shares it); nothing of the project in it.
   */
  private async thank(userId: string, file: GuestFileRow): Promise<void> {
    if (!file.guest_email) return;
    if (!(await this.deps.limiter.take(AUTH_RATE_RULES.mailSendUser, userId, 1))) return;
    await this.deps.mailer.send({
      to: file.guest_email,
      subject: `Your file was accepted: ${mailText(file.original_name, 120)}`,
      text: [
        `Hello ${mailText(file.guest_name)},`,
        '',
        `The file '${mailText(file.original_name)}' you sent through the upload link '${mailText(file.link_name)}' was accepted.`,
        '',
        'Thank you for sending it.',
        '',
        '— Takes',
      ].join('\n'),
    });
  }

  private async withRetry<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.deps.repo.transaction(work);
      } catch (error) {
        if (attempt >= 5 || !isUniqueViolation(error)) throw error;
      }
    }
  }
}
