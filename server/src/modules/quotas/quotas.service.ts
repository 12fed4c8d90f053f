import { randomUUID } from 'node:crypto';
import {
  ownerQuotaRefusalMessage,
  quotaRefusalMessage,
  type AdminStorage,
  type StorageUsage,
} from '@takes/contract';
import type { Clock } from '../../clock';
import { TooLarge } from '../../errors';
import type { ObjectStore } from '../../storage/object-store';
import type { Executor, QuotasRepo } from './quotas.repo';

/** How long a multipart upload or a publish may hold its reservation (then it lapses). */
export const UPLOAD_RESERVATION_MS = 60 * 60 * 1000;

/** Objects the admin page counts by listing (their sizes are not kept in rows). */
const IMAGE_PREFIXES = ['covers/', 'collection-covers/', 'avatars/'];
const OTHER_PREFIXES = ['peaks/', 'exports/'];

export interface Reservation {
  id: string;
  userId: string;
}

/**
 * Storage quotas (issue 48): what a person's originals and renditions take, the quota that
 * applies to them (their own, set by an admin, else USER_STORAGE_QUOTA), and the check every
 * upload path makes before storing anything. An upload in flight holds its bytes as a
 * reservation (a row, so it holds across processes) until its row is recorded or it fails, so
 * two uploads started together cannot both pass when only one fits.
 */
export class StorageQuotas {
  constructor(
    private readonly deps: {
      repo: QuotasRepo;
      clock: Clock;
      storage: ObjectStore;
      /** USER_STORAGE_QUOTA; null: no quota unless an admin sets one. */
      defaultQuotaBytes: number | null;
    },
  ) {}

  /** Whose storage a project's audio counts in: its owner's (null: no such project). */
  projectOwner(projectId: string): Promise<string | null> {
    return this.deps.repo.projectOwner(projectId);
  }

  /** Whose storage a repository's bounces count in: its owner's (null: no such repository). */
  repoOwner(repoId: string): Promise<string | null> {
    return this.deps.repo.repoOwner(repoId);
  }

  async quotaOf(userId: string, db?: Executor): Promise<number | null> {
    return (await this.deps.repo.quotaOverride(userId, db)) ?? this.deps.defaultQuotaBytes;
  }

  async usage(userId: string): Promise<StorageUsage> {
    const [used, quota] = await Promise.all([
      this.deps.repo.usedBytes(userId),
      this.quotaOf(userId),
    ]);
    return { used_bytes: used, quota_bytes: quota };
  }

  usedBytesByUser(): Promise<Map<string, number>> {
    return this.deps.repo.usedBytesByUser();
  }

  async totals(): Promise<AdminStorage> {
    const audio = await this.deps.repo.totals();
    const images = await this.listedBytes(IMAGE_PREFIXES);
    const other = await this.listedBytes(OTHER_PREFIXES);
    const by_kind = { ...audio, images, other };
    return {
      total_bytes: audio.originals + audio.renditions + audio.lossless + images + other,
      by_kind,
    };
  }

  /**
   * Refuses (413) when `incomingBytes` more would take the person over their quota. `uploaderId`
   * (when not the holder; null: a guest) is told of the owner's quota, without its figures.
   */
  async check(
    userId: string,
    incomingBytes: number,
    options: { uploaderId?: string | null } = {},
  ): Promise<void> {
    await this.deps.repo.transaction(async (trx) => {
      await this.refuseIfOver(userId, incomingBytes, '', options.uploaderId, trx);
    });
  }

  /**
   * Holds `bytes` of the person's quota for an upload in flight, or refuses (413) when they do
   * not fit with what they hold and their other uploads in flight hold. Called again with the
   * same `id` (the real size, or another holder once the place is known), it replaces the hold.
   * Answers undefined when no quota applies (nothing to hold).
   */
  async reserve(
    userId: string,
    bytes: number,
    options: { id?: string | undefined; ttlMs?: number; uploaderId?: string | null } = {},
  ): Promise<Reservation | undefined> {
    const id = options.id ?? randomUUID();
    bytes = Math.ceil(bytes);
    return this.deps.repo.transaction(async (trx) => {
      const limited = await this.refuseIfOver(userId, bytes, id, options.uploaderId, trx);
      if (!limited) {
        await this.deps.repo.deleteReservation(id, trx);
        return undefined;
      }
      const now = this.deps.clock.now();
      // Housekeeping on the way: this person's lapsed holds (they count for nothing already).
      await this.deps.repo.deleteExpired(now.toISOString(), userId, trx);
      await this.deps.repo.putReservation(
        {
          id,
          user_id: userId,
          bytes,
          expires_at: new Date(
            now.getTime() + (options.ttlMs ?? UPLOAD_RESERVATION_MS),
          ).toISOString(),
          created_at: now.toISOString(),
        },
        trx,
      );
      return { id, userId };
    });
  }

  /** Ends a hold: in the transaction that records what the upload became, or after a failure. */
  async release(id: string | undefined, db?: Executor): Promise<void> {
    if (id) await this.deps.repo.deleteReservation(id, db);
  }

  /** The recurring sweep: holds of uploads whose process ended without releasing them. */
  async sweep(): Promise<void> {
    await this.deps.repo.deleteExpired(this.deps.clock.now().toISOString());
  }

  /** Under the person's lock: throws when over; answers whether a quota applies at all. */
  private async refuseIfOver(
    userId: string,
    incoming: number,
    except: string,
    uploaderId: string | null | undefined,
    trx: Executor,
  ): Promise<boolean> {
    await this.deps.repo.lockUser(userId, trx);
    const quota = await this.quotaOf(userId, trx);
    if (quota === null) return false;
    const now = this.deps.clock.now().toISOString();
    const { used, held } = await this.deps.repo.usedAndHeld(userId, now, except, trx);
    const over = used + held + incoming - quota;
    const theirs = uploaderId === undefined || uploaderId === userId;
    if (over > 0)
      throw new TooLarge(
        theirs ? quotaRefusalMessage(over, used + held, quota) : ownerQuotaRefusalMessage(over),
        {
          code: 'storage_quota_exceeded',
          details: theirs
            ? { over_bytes: over, used_bytes: used, held_bytes: held, quota_bytes: quota }
            : { over_bytes: over },
        },
      );
    return true;
  }

  private async listedBytes(prefixes: string[]): Promise<number> {
    let bytes = 0;
    for (const prefix of prefixes)
      for (const object of await this.deps.storage.list(prefix)) bytes += object.size;
    return bytes;
  }
}
