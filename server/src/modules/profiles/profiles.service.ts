import { randomUUID } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { Database } from '../../db/schema';
import type { JobQueue } from '../../jobs/job-queue';
import { deleteObjectsJob } from '../../jobs/catalog';
import { ImageSniffer, UnsupportedImageError } from '../../media/image-type';
import { HttpError, notFound } from '../../http/errors';
import { ObjectTooLargeError, type ObjectStore } from '../../storage/object-store';
import { avatarUrl } from '../auth/auth.service';

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

export interface Profile {
  email: string;
  displayName: string | null;
  avatarUrl: string | null;
}

export class ProfilesService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      storage: ObjectStore;
      jobs: JobQueue;
      clock: Clock;
    },
  ) {}

  async get(userId: string): Promise<Profile> {
    const row = await this.deps.db
      .selectFrom('users')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .select([
        'users.email',
        'profiles.display_name',
        'profiles.avatar_key',
        'profiles.updated_at',
      ])
      .where('users.id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound();
    return {
      email: row.email,
      displayName: row.display_name,
      avatarUrl: row.avatar_key ? avatarUrl(userId, row.updated_at) : null,
    };
  }

  async setDisplayName(userId: string, displayName: string | null): Promise<Profile> {
    const updated_at = this.deps.clock.now().toISOString();
    await this.deps.db
      .insertInto('profiles')
      .values({ user_id: userId, display_name: displayName, avatar_key: null, updated_at })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ display_name: displayName, updated_at }),
      )
      .execute();
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
        throw new HttpError(415, 'The avatar must be a PNG, JPEG or WebP image.');
      if (error instanceof ObjectTooLargeError)
        throw new HttpError(413, 'The avatar must be 2 MB or smaller.');
      throw error;
    }
    const updated_at = this.deps.clock.now().toISOString();
    await this.deps.db.transaction().execute(async (trx) => {
      const old = await trx
        .selectFrom('profiles')
        .select('avatar_key')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      await trx
        .insertInto('profiles')
        .values({ user_id: userId, display_name: null, avatar_key: key, updated_at })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ avatar_key: key, updated_at }))
        .execute();
      // The old image goes once the new one is committed.
      if (old?.avatar_key)
        await this.deps.jobs.enqueue(
          deleteObjectsJob,
          { keys: [old.avatar_key] },
          { executor: trx },
        );
    });
    return this.get(userId);
  }

  async avatarKey(userId: string): Promise<string> {
    const row = await this.deps.db
      .selectFrom('profiles')
      .select('avatar_key')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row?.avatar_key) throw notFound();
    return row.avatar_key;
  }
}
