import { randomUUID } from 'node:crypto';
import {
  GUEST_FILE_MAX_BYTES,
  GUEST_TUS_PATH,
  GUEST_UPLOADS_PER_ADDRESS_HOUR,
  GUEST_UPLOADS_PER_LINK_HOUR,
  LINK_PASSWORD_MESSAGES,
  PROJECT_MESSAGES,
  UPLOAD_LINK_MESSAGES,
  type GuestUploadPage,
} from '@takes/contract';
import { addressNetwork } from '../../auth/address-network';
import { AUTH_RATE_RULES, type RateLimiter, type RateRule } from '../../auth/rate-limiter';
import type { Clock } from '../../clock';
import { AppError, Gone, NotFound, RateLimited, TooLarge } from '../../errors';
import type { JobQueue } from '../../jobs/job-queue';
import type { ScratchFile } from '../../storage/scratch-file';
import {
  deleteOriginalIfUnused,
  recordOriginalRef,
  releaseOriginalRef,
  takeInOriginal,
  type IntakeDeps,
} from '../audio';
import type { ActivityLog } from '../activity';
import type { StorageQuotas } from '../quotas';
import type { LinkPasswords } from '../sharing';
import { placeColumns, placeOf } from './guest-place';
import { cleanFileName } from './guest-words';
import type { Executor, GuestUploadsRepo, UploadLinkRow } from './guest-uploads.repo';
import { processGuestFileJob } from './jobs';

const HOUR = 60 * 60 * 1000;
/** Files one address may start sending an hour (all links), and one link from all addresses. */
export const GUEST_RATE_RULES = {
  address: { name: 'guest-upload:ip', limit: GUEST_UPLOADS_PER_ADDRESS_HOUR, windowMs: HOUR },
  link: { name: 'guest-upload:link', limit: GUEST_UPLOADS_PER_LINK_HOUR, windowMs: HOUR },
} satisfies Record<string, RateRule>;

export interface GuestIntakeDeps extends IntakeDeps {
  repo: GuestUploadsRepo;
  /** For the stored-audio references (recorded and released around the intake). */
  db: Executor;
  clock: Clock;
  jobs: JobQueue;
  limiter: RateLimiter;
  passwords: LinkPasswords;
  activity: ActivityLog;
  /** A guest's file counts in the storage of the link's project or repository owner. */
  quotas: StorageQuotas;
}

/** A guest's upload as the link's unfinished uploads count it (the tus rows' owner). */
export const guestUploader = (linkId: string) => `upload-link:${linkId}`;

/**
 * The guest's side of an upload link: the page (the link's own words and room, nothing of the
 * project), its password, and the gate of the resumable uploads that come through it: the link
 * opens, the hourly limits and the link's files and bytes (counted under the link's lock with
 * its unfinished uploads), and the finished file taken in as a guest file of the link's branch
 * (a project's or a repository's: the page says nothing of either).
 */
export class GuestIntake {
  constructor(private readonly deps: GuestIntakeDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** The link a key opens: 404 unknown or revoked (a miss counted per address), 410 expired. */
  private async find(key: string, ip: string): Promise<UploadLinkRow> {
    const { limiter } = this.deps;
    if (await limiter.isLimited(AUTH_RATE_RULES.linkMissIp, ip))
      throw new RateLimited('Too many attempts. Please wait a moment and try again.');
    const link = /^[A-Za-z0-9]+$/.test(key) ? await this.deps.repo.linkByKey(key) : undefined;
    if (!link || link.revoked_at) {
      await limiter.hit(AUTH_RATE_RULES.linkMissIp, ip);
      throw new NotFound(UPLOAD_LINK_MESSAGES.linkNotFound, { code: 'link_not_found' });
    }
    this.requireLive(link);
    return link;
  }

  /** Whose storage the link's files count in: its project's or repository's owner's. */
  private ownerOf(link: UploadLinkRow): Promise<string | null> {
    const place = placeOf(link);
    return place.kind === 'project'
      ? this.deps.quotas.projectOwner(place.projectId)
      : this.deps.quotas.repoOwner(place.repoId);
  }

  private requireLive(link: UploadLinkRow): void {
    if (link.revoked_at)
      throw new NotFound(UPLOAD_LINK_MESSAGES.linkNotFound, { code: 'link_not_found' });
    if (link.expires_at <= this.now())
      throw new Gone(UPLOAD_LINK_MESSAGES.linkExpired, { code: 'link_expired' });
  }

  /** The link, open for this request: 401 'This link needs a password' while locked. */
  async open(key: string, ip: string, cookies: string | undefined): Promise<UploadLinkRow> {
    const link = await this.find(key, ip);
    this.deps.passwords.requireOpen('upload', link, cookies, LINK_PASSWORD_MESSAGES.needsPassword);
    return link;
  }

  async page(key: string, ip: string, cookies: string | undefined): Promise<GuestUploadPage> {
    const link = await this.open(key, ip, cookies);
    const filesLeft = Math.max(0, link.max_files - Number(link.files_received));
    const bytesLeft = Math.max(0, Number(link.max_bytes) - Number(link.bytes_received));
    return {
      name: link.name,
      message: link.message,
      expires_at: link.expires_at,
      files_left: filesLeft,
      bytes_left: bytesLeft,
      max_file_bytes: Math.min(GUEST_FILE_MAX_BYTES, bytesLeft),
      upload_endpoint: GUEST_TUS_PATH,
    };
  }

  async unlock(key: string, ip: string, password: string): Promise<string> {
    const link = await this.find(key, ip);
    return this.deps.passwords.unlock(
      'upload',
      link,
      ip,
      password,
      LINK_PASSWORD_MESSAGES.wrongPassword,
    );
  }

  /**
   * A new upload through the link: open for this request, and counted against the hourly limits
   * (per address, per link) before anything is made. Answers the link's id.
   */
  async admit(key: string, ip: string, cookies: string | undefined, size: number): Promise<string> {
    const link = await this.open(key, ip, cookies);
    if (size > GUEST_FILE_MAX_BYTES) throw new TooLarge(PROJECT_MESSAGES.tooLarge);
    const owner = await this.ownerOf(link);
    if (owner) await this.deps.quotas.check(owner, size, { uploaderId: null });
    const { limiter } = this.deps;
    const tooMany = async (rule: RateRule, subject: string) => {
      if (!(await limiter.hit(rule, subject)))
        throw new RateLimited(
          UPLOAD_LINK_MESSAGES.tooManyPerHour,
          await limiter.retryAfterSeconds(rule, subject),
        );
    };
    await tooMany(GUEST_RATE_RULES.address, addressNetwork(ip));
    await tooMany(GUEST_RATE_RULES.link, link.id);
    return link.id;
  }

  /**
   * Under the link's upload lock (the transaction given): why one more file of `size` does not
   * fit the link, counting what it took and its unfinished uploads; undefined when it fits.
   */
  async refusal(
    linkId: string,
    held: { open: number; bytes: number },
    size: number,
    trx: Executor,
  ): Promise<AppError | undefined> {
    const link = await this.deps.repo.linkById(linkId, trx);
    if (!link || link.revoked_at)
      return new NotFound(UPLOAD_LINK_MESSAGES.linkNotFound, { code: 'link_not_found' });
    if (Number(link.files_received) + held.open >= link.max_files)
      return new AppError('rate_limited', UPLOAD_LINK_MESSAGES.filesUsedUp, {
        limit: 'link_files',
        max_files: link.max_files,
      });
    if (Number(link.bytes_received) + held.bytes + size > Number(link.max_bytes))
      return new TooLarge(UPLOAD_LINK_MESSAGES.bytesUsedUp, {
        details: { limit: 'link_bytes', max_bytes: Number(link.max_bytes) },
      });
    return undefined;
  }

  /** Every later request of an upload: the link still opens for this request. */
  async stillOpen(linkId: string, cookies: string | undefined): Promise<void> {
    const link = await this.deps.repo.linkById(linkId);
    if (!link) throw new NotFound(UPLOAD_LINK_MESSAGES.linkNotFound, { code: 'link_not_found' });
    this.requireLive(link);
    this.deps.passwords.requireOpen('upload', link, cookies, LINK_PASSWORD_MESSAGES.needsPassword);
  }

  /**
   * The last byte is in: the file is checked to be audio by its content (415 otherwise), stored
   * under its hash, and kept as a guest file of the link's branch with its processing job, the
   * link's counts and the team's notification ('guest_file.received'), in one transaction.
   */
  async receive(
    linkId: string,
    guest: { name: string; email: string | null },
    rawFileName: string,
    file: ScratchFile,
  ): Promise<{ ok: true; file_name: string }> {
    const link = await this.deps.repo.linkById(linkId);
    if (!link) throw new NotFound(UPLOAD_LINK_MESSAGES.linkNotFound, { code: 'link_not_found' });
    this.requireLive(link);
    const place = placeOf(link);
    const fileName = cleanFileName(rawFileName);
    const held: { refId?: string; key?: string } = {};
    // The real size, held against the owner's quota before the original is stored.
    const owner = await this.ownerOf(link);
    const reservation = owner
      ? await this.deps.quotas.reserve(owner, file.size, { uploaderId: null })
      : undefined;
    try {
      const { key, format, metadata } = await takeInOriginal(this.deps, file, async (key) => {
        held.refId = await recordOriginalRef(this.deps.db, this.deps.clock, key);
        held.key = key;
      });
      const id = randomUUID();
      const now = this.now();
      await this.deps.repo.transaction(async (trx) => {
        await this.deps.repo.insertFile(
          {
            id,
            link_id: link.id,
            link_name: link.name,
            ...placeColumns(place),
            guest_name: guest.name,
            guest_email: guest.email,
            original_key: key,
            original_name: fileName,
            original_size: file.size,
            original_format: format,
            status: 'processing',
            error: null,
            metadata: JSON.stringify(metadata),
            waveform: null,
            loudness: null,
            renditions: '{}',
            created_at: now,
            updated_at: now,
          },
          trx,
        );
        await this.deps.repo.countReceived(link.id, file.size, trx);
        await releaseOriginalRef(trx, held.refId as string);
        await this.deps.quotas.release(reservation?.id, trx);
        await this.deps.activity.record(trx, {
          kind: 'guest_file.received',
          ...(place.kind === 'project' ? { projectId: place.projectId } : { repoId: place.repoId }),
          actor: { visitorName: guest.name },
          targetId: id,
          data: {
            branch_id: place.branchId,
            branch_name: link.branch_name,
            link_name: link.name,
            file_name: fileName,
          },
        });
        await this.deps.jobs.enqueue(processGuestFileJob, { guestFileId: id }, { executor: trx });
      });
      this.deps.jobs.notify();
      return { ok: true, file_name: fileName };
    } catch (error) {
      await this.deps.quotas.release(reservation?.id);
      // Nothing left behind: the reference goes, and the original unless something uses it.
      if (held.refId && held.key) {
        await releaseOriginalRef(this.deps.db, held.refId);
        await deleteOriginalIfUnused(this.deps.db, this.deps.storage, held.key);
      }
      throw error;
    }
  }
}
