import { randomUUID } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import type { Clock } from '../../clock';
import { NotFound, TooLarge, Unsupported } from '../../errors';
import type { JobQueue } from '../../jobs/job-queue';
import { deleteObjectsJob } from '../../storage/jobs';
import { ImageSniffer, UnsupportedImageError } from '../../media/image-type';
import { ObjectTooLargeError, type ObjectStore } from '../../storage/object-store';
import { avatarUrl } from './avatar-url';
import type { ProfilesRepo } from './profiles.repo';

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

export interface Profile {
  email: string;
  display_name: string | null;
  avatar_url: string | null;
}

/** A person's display name and avatar (checked by content, stored, swapped in). */
export class ProfilesService {
  constructor(
    private readonly deps: {
      repo: ProfilesRepo;
      storage: ObjectStore;
      jobs: JobQueue;
      clock: Clock;
    },
  ) {}

  async get(userId: string): Promise<Profile> {
    const row = await this.deps.repo.find(userId);
    if (!row) throw new NotFound();
    return {
      email: row.email,
      display_name: row.display_name,
      avatar_url: row.avatar_key ? avatarUrl(userId, row.updated_at) : null,
    };
  }

  async setDisplayName(userId: string, displayName: string | null): Promise<Profile> {
    const updated_at = this.deps.clock.now().toISOString();
    await this.deps.repo.setDisplayName(userId, displayName, updated_at);
    return this.get(userId);
  }

  /** Stores a new avatar (checked by content, size-limited while streaming), then swaps it in. */
  async setAvatar(userId: string, file: Readable): Promise<Profile> {
    const sniffer = new ImageSniffer();
    // pipeline, not pipe: when the sniffer refuses the file, the upload stream stops too.
    pipeline(file, sniffer, () => undefined);
    const key = `avatars/${userId}/${randomUUID()}`;
    try {
      await this.deps.storage.put(key, sniffer, { maxBytes: AVATAR_MAX_BYTES });
    } catch (error) {
      if (error instanceof UnsupportedImageError)
        throw new Unsupported('The avatar must be a PNG, JPEG or WebP image.');
      if (error instanceof ObjectTooLargeError)
        throw new TooLarge('The avatar must be 2 MB or smaller.');
      throw error;
    }
    const updated_at = this.deps.clock.now().toISOString();
    await this.deps.repo.transaction(async (trx) => {
      const old = await this.deps.repo.avatarKey(userId, trx);
      await this.deps.repo.setAvatarKey(userId, key, updated_at, trx);
      // The old image goes once the new one is committed.
      if (old) await this.deps.jobs.enqueue(deleteObjectsJob, { keys: [old] }, { executor: trx });
    });
    return this.get(userId);
  }

  async avatarKey(userId: string): Promise<string> {
    const key = await this.deps.repo.avatarKey(userId);
    if (!key) throw new NotFound();
    return key;
  }
}
