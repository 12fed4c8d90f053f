import { sql, type Kysely, type Transaction } from 'kysely';
import { dialectOf } from '../../db/dialect-sql';
import type { Database, PlayerAppsTable, PlayerPlaysTable } from '../../db/schema';
import { accountLive } from '../admin';

export type Executor = Kysely<Database> | Transaction<Database>;

/** A live key with the person it opens. */
export interface KeyOwner {
  app: PlayerAppsTable;
  user: { id: string; email: string; name: string; display_name: string | null };
}

/** SQL for player-app keys and the plays they report. */
export class PlayerAppsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  /** Holds the person's row until the transaction ends, so two adds count one after the other. */
  async lockUser(trx: Transaction<Database>, userId: string): Promise<void> {
    let query = trx.selectFrom('users').select('id').where('id', '=', userId);
    if (dialectOf(trx as unknown as Kysely<unknown>) === 'postgres') query = query.forUpdate();
    await query.executeTakeFirst();
  }

  async countLive(userId: string, db: Executor = this.db): Promise<number> {
    const row = await db
      .selectFrom('player_apps')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(row: PlayerAppsTable, db: Executor = this.db): Promise<void> {
    await db.insertInto('player_apps').values(row).execute();
  }

  listLive(userId: string): Promise<PlayerAppsTable[]> {
    return this.db
      .selectFrom('player_apps')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** Revokes one of the person's live keys; false when they have no such key. */
  async revoke(userId: string, id: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('player_apps')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * The key with this hash and its person, revoked or not (the caller tells them apart); none
   * while an admin has disabled the person.
   */
  async findByHash(keyHash: string): Promise<KeyOwner | undefined> {
    const row = await this.db
      .selectFrom('player_apps')
      .innerJoin('users', 'users.id', 'player_apps.user_id')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .selectAll('player_apps')
      .select([
        'users.email as user_email',
        'users.name as user_name',
        'profiles.display_name as display_name',
      ])
      .where('player_apps.key_hash', '=', keyHash)
      .where(accountLive(sql<string>`player_apps.user_id`))
      .executeTakeFirst();
    if (!row) return undefined;
    const { user_email, user_name, display_name, ...app } = row;
    return {
      app,
      user: { id: app.user_id, email: user_email, name: user_name, display_name },
    };
  }

  async touch(id: string, at: string, client: string | null): Promise<void> {
    await this.db
      .updateTable('player_apps')
      .set({ last_used_at: at, last_client: client })
      .where('id', '=', id)
      .execute();
  }

  async insertPlay(row: PlayerPlaysTable, db: Executor = this.db): Promise<void> {
    await db.insertInto('player_plays').values(row).execute();
  }

  /** When this person last heard this version or bounce through a player app, if ever. */
  async lastPlay(
    userId: string,
    target: { versionId: string } | { bounceId: string },
    db: Executor = this.db,
  ): Promise<string | undefined> {
    let query = db
      .selectFrom('player_plays')
      .select('played_at')
      .where('user_id', '=', userId)
      .orderBy('played_at', 'desc')
      .limit(1);
    query =
      'versionId' in target
        ? query.where('version_id', '=', target.versionId)
        : query.where('bounce_id', '=', target.bounceId);
    const row = await query.executeTakeFirst();
    return row ? String(row.played_at) : undefined;
  }
}
