import {
  REPO_MESSAGES,
  UPLOAD_LINK_MESSAGES,
  type AcceptedGuestFile,
  type GuestFilesResponse,
} from '@takes/contract';
import { AUTH_RATE_RULES, type RateLimiter } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import type { BouncesTable, VersionsTable } from '../../db/schema';
import { isUniqueViolation } from '../../db/unique-violation';
import { Conflict, NotFound } from '../../errors';
import type { JobQueue } from '../../jobs/job-queue';
import type { Mailer } from '../../mail/mailer';
import { mailText } from '../../mail/mail-text';
import { AUDIO_MIME } from '../../media/audio-type';
import { titleFromFileName } from '../../media/file-name';
import { may, type AccessPolicy } from '../access';
import type { ActivityLog, Actor } from '../activity';
import {
  ownedAudioKeys,
  pickAudio,
  previewOf,
  queueCleanup,
  type Quality,
  type StoredAudio,
} from '../audio';
import { placeOf, requireAt, type GuestAction } from './guest-place';
import { toGuestFile } from './guest-uploads.presenter';
import type { Executor, GuestFileRow, GuestUploadsRepo } from './guest-uploads.repo';

const NOT_FOUND = UPLOAD_LINK_MESSAGES.fileNotFound;

/** How a version is numbered and written (the versions module's, handed in by createServices). */
export interface VersionWriter {
  nextNumber(branchId: string, db: Executor): Promise<number>;
  insert(row: VersionsTable, db: Executor): Promise<void>;
}

/**
 * How a bounce is published on a repository's branch (the repos module's BounceRows, handed in
 * by createServices): its commit, row and 'bounce.published' activity, in the caller's
 * transaction.
 */
export interface BounceWriter {
  findBranch(repoId: string, name: string): Promise<{ id: string } | undefined>;
  publishOnBranch(
    trx: Executor,
    input: {
      repoId: string;
      branchId: string;
      committerId: string;
      actor: Actor;
      bounce: Omit<BouncesTable, 'repo_id' | 'branch_id' | 'commit_id'>;
    },
  ): Promise<{ branchName: string }>;
}

type Accepted = { result: AcceptedGuestFile; email: boolean; file: GuestFileRow };

export interface GuestFilesDeps {
  access: AccessPolicy;
  repo: GuestUploadsRepo;
  versions: VersionWriter;
  bounces: BounceWriter;
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
 * accepted or declined by whoever may upload to the project or publish to the repository (Editor
 * and up). Accepting a project's file ('Add as Version N') makes the version, numbered then; a
 * repository's ('Add as bounce') makes a bounce of its branch. Either keeps the file's id and
 * stored audio, in one transaction, so its renditions and peaks (keyed by row id) are its own.
 */
export class GuestFilesService {
  constructor(private readonly deps: GuestFilesDeps) {}

  private async file(userId: string, id: string, action: GuestAction) {
    const row = await this.deps.repo.fileById(id);
    if (!row) throw new NotFound(NOT_FOUND);
    const place = placeOf(row);
    const role = await requireAt(this.deps.access, userId, place, action, NOT_FOUND);
    return { row, place, role };
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

  /** A repository's files (its branch's, by name): no number, a bounce has none. */
  async listForRepo(
    userId: string,
    repoId: string,
    branchName: string | undefined,
  ): Promise<GuestFilesResponse> {
    const grant = await this.deps.access.repository(userId, repoId, 'listen');
    let branchId: string | undefined;
    if (branchName) {
      const branch = await this.deps.bounces.findBranch(repoId, branchName);
      if (!branch) throw new NotFound(REPO_MESSAGES.branchNotFound);
      branchId = branch.id;
    }
    const rows = await this.deps.repo.filesOfRepo(repoId, branchId);
    const showAddress = may(grant.role, 'publish');
    return { files: rows.map((row) => toGuestFile(row, showAddress)), next_version_number: null };
  }

  async audio(userId: string, id: string, quality: Quality): Promise<StoredAudio> {
    const { row } = await this.file(userId, id, 'listen');
    return pickAudio({ ...row, original_size: Number(row.original_size) }, quality);
  }

  async accept(
    userId: string,
    id: string,
    words: { message?: string | null | undefined; title?: string | null | undefined },
  ) {
    const { place } = await this.file(userId, id, 'decide');
    const accepted = await this.withRetry((trx) =>
      place.kind === 'project'
        ? this.acceptInside(trx, id, words.message)
        : this.acceptAsBounce(trx, userId, id, words.title),
    );
    this.deps.jobs.notify();
    if (place.kind === 'project' && this.deps.afterAccepted)
      await this.deps.afterAccepted(id).catch(() => undefined);
    if (accepted.email) await this.thank(userId, accepted.file).catch(() => undefined);
    return accepted.result;
  }

  /** The file, still there and processed (409 while processing or after a failure). */
  private async readyFile(trx: Executor, id: string): Promise<GuestFileRow> {
    const row = await this.deps.repo.fileById(id, trx);
    if (!row) throw new NotFound(NOT_FOUND);
    if (row.status === 'processing')
      throw new Conflict(UPLOAD_LINK_MESSAGES.stillProcessing, { code: 'version_processing' });
    if (row.status !== 'completed') throw new Conflict(UPLOAD_LINK_MESSAGES.failedCannotAccept);
    return row;
  }

  private async acceptInside(
    trx: Executor,
    id: string,
    message: string | null | undefined,
  ): Promise<Accepted> {
    const row = await this.readyFile(trx, id);
    const place = placeOf(row);
    if (place.kind !== 'project') throw new NotFound(NOT_FOUND);
    const number = await this.deps.versions.nextNumber(place.branchId, trx);
    const now = this.deps.clock.now().toISOString();
    // The file's row goes and the version (same id, same stored audio) comes in one step; a
    // decline that got there first (and queued its audio's removal) wins.
    if (!(await this.deps.repo.deleteFile(row.id, trx))) throw new NotFound(NOT_FOUND);
    await this.deps.versions.insert(
      {
        id: row.id,
        project_id: place.projectId,
        branch_id: place.branchId,
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
    await this.deps.touchProject(place.projectId, now, trx);
    return {
      result: {
        version_id: row.id,
        project_id: place.projectId,
        branch_id: place.branchId,
        version_number: number,
      },
      email: row.guest_email !== null,
      file: row,
    };
  }

  /**
   * 'Add as bounce': the file becomes a bounce of its repository's branch, published as the
   * repository publishes (on the branch's head commit, 'bounce.published' under the guest's name).
   */
  private async acceptAsBounce(
    trx: Executor,
    userId: string,
    id: string,
    title: string | null | undefined,
  ): Promise<Accepted> {
    const row = await this.readyFile(trx, id);
    const place = placeOf(row);
    if (place.kind !== 'repo') throw new NotFound(NOT_FOUND);
    const now = this.deps.clock.now().toISOString();
    if (!(await this.deps.repo.deleteFile(row.id, trx))) throw new NotFound(NOT_FOUND);
    const name = title?.trim() || titleFromFileName(row.original_name) || 'Bounce';
    const placed = await this.deps.bounces.publishOnBranch(trx, {
      repoId: place.repoId,
      branchId: place.branchId,
      committerId: userId,
      actor: { visitorName: row.guest_name },
      bounce: {
        id: row.id,
        title: name,
        filename: row.original_name,
        mime: AUDIO_MIME[row.original_format as keyof typeof AUDIO_MIME] ?? 'audio/wav',
        original_key: row.original_key,
        original_size: Number(row.original_size),
        original_format: row.original_format,
        status: 'completed',
        error: null,
        metadata: row.metadata,
        waveform: row.waveform,
        loudness: row.loudness,
        renditions: row.renditions,
        created_at: now,
        updated_at: now,
      },
    });
    return {
      result: { bounce_id: row.id, repo_id: place.repoId, branch: placed.branchName, title: name },
      email: row.guest_email !== null,
      file: row,
    };
  }

  /** Deleted with its renditions and peaks, and its original unless anything else uses it. */
  async decline(userId: string, id: string): Promise<void> {
    await this.file(userId, id, 'decide');
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
