import type { Kysely } from 'kysely';
import type { Role } from '@takes/contract';
import type {
  BouncesTable,
  Database,
  RepoBranchesTable,
  RepoCommitsTable,
  ReposTable,
} from '../../db/schema';
import { repoRolesOf } from '../access';
import { recentVersions } from './recent-versions';

export { FEED_WALK_WINDOW } from './recent-versions';

/** The database or a transaction on it. */
export type Executor = Kysely<Database>;

export type RepoSummaryRow = ReposTable & {
  commit_count: number | null;
  legacy_count: number | null;
  bounce_count: number | null;
  default_branch: string | null;
};

export type BounceRow = BouncesTable & {
  repo_name: string;
  cover_key: string | null;
  branch_name: string;
  commit_sha: string;
};

/**
 * SQL for repositories, their branches, commits, legacy patches, bounces and publish uploads.
 * Reads of one object go by its id (the services ask the access policy first); lists across
 * repositories or projects join the caller's roles (`repoRolesOf`/`projectRolesOf`), so they hold
 * what the caller owns and what they are a member of. The services decide what a missing row means.
 */
export class ReposRepo {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  // ---- repositories ----

  /** Every repository the person owns or is a member of, with their role on each. */
  summariesFor(userId: string): Promise<(RepoSummaryRow & { role: Role })[]> {
    return this.summaryQuery()
      .innerJoin(repoRolesOf(this.db, userId).as('access'), 'access.repo_id', 'r.id')
      .select('access.role')
      .orderBy('r.activity_at', 'desc')
      .orderBy('r.name', 'asc')
      .execute();
  }

  summary(repoId: string): Promise<RepoSummaryRow | undefined> {
    return this.summaryQuery().where('r.id', '=', repoId).executeTakeFirst();
  }

  repoById(repoId: string, db: Executor = this.db): Promise<ReposTable | undefined> {
    return db.selectFrom('repos').selectAll().where('id', '=', repoId).executeTakeFirst();
  }

  async insertRepo(row: ReposTable): Promise<void> {
    await this.db.insertInto('repos').values(row).execute();
  }

  async renameRepo(repoId: string, name: string, now: string): Promise<void> {
    await this.db
      .updateTable('repos')
      .set({ name, name_key: name.toLowerCase(), updated_at: now, activity_at: now })
      .where('id', '=', repoId)
      .execute();
  }

  async deleteRepo(repoId: string, trx: Executor): Promise<void> {
    await trx.deleteFrom('repos').where('id', '=', repoId).execute();
  }

  async setCover(repoId: string, key: string, type: string, now: string, trx: Executor) {
    await trx
      .updateTable('repos')
      .set({ cover_key: key, cover_type: type, updated_at: now, activity_at: now })
      .where('id', '=', repoId)
      .execute();
  }

  async touch(repoId: string, now: string, db: Executor = this.db): Promise<void> {
    await db.updateTable('repos').set({ activity_at: now }).where('id', '=', repoId).execute();
  }

  // ---- branches ----

  branchesWithCounts(repoId: string) {
    return this.db
      .selectFrom('repo_branches as b')
      .selectAll('b')
      .select((eb) => [
        eb
          .selectFrom('repo_commits as c')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('c.branch_id', '=', 'b.id')
          .as('commit_count'),
        eb
          .selectFrom('bounces as x')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('x.branch_id', '=', 'b.id')
          .as('bounce_count'),
      ])
      .where('b.repo_id', '=', repoId)
      .orderBy('b.is_default', 'desc')
      .orderBy('b.name', 'asc')
      .execute();
  }

  findBranch(
    repoId: string,
    name: string,
    db: Executor = this.db,
  ): Promise<RepoBranchesTable | undefined> {
    return db
      .selectFrom('repo_branches')
      .selectAll()
      .where('repo_id', '=', repoId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  defaultBranch(repoId: string, db: Executor = this.db): Promise<RepoBranchesTable | undefined> {
    return db
      .selectFrom('repo_branches')
      .selectAll()
      .where('repo_id', '=', repoId)
      .where('is_default', '=', 1)
      .executeTakeFirst();
  }

  branchById(branchId: string, trx: Executor): Promise<RepoBranchesTable> {
    return trx
      .selectFrom('repo_branches')
      .selectAll()
      .where('id', '=', branchId)
      .executeTakeFirstOrThrow();
  }

  async insertBranch(row: RepoBranchesTable, trx: Executor): Promise<void> {
    await trx.insertInto('repo_branches').values(row).execute();
  }

  /** Moves a head only from the value the caller read: false when another commit moved it. */
  async moveHead(
    branchId: string,
    from: string | null,
    to: string,
    now: string,
    trx: Executor,
  ): Promise<boolean> {
    const moved = await trx
      .updateTable('repo_branches')
      .set({ head_sha: to, updated_at: now })
      .where('id', '=', branchId)
      .where('head_sha', from === null ? 'is' : '=', from)
      .executeTakeFirst();
    return Number(moved.numUpdatedRows) === 1;
  }

  // ---- commits and patches ----

  commitsOf(branchId: string, limit: number) {
    return this.db
      .selectFrom('repo_commits as c')
      .selectAll('c')
      .select((eb) =>
        eb
          .exists(eb.selectFrom('bounces as x').select('x.id').whereRef('x.commit_id', '=', 'c.id'))
          .as('has_bounce'),
      )
      .where('c.branch_id', '=', branchId)
      .orderBy('c.seq', 'desc')
      .limit(limit)
      .execute();
  }

  async lastSeq(repoId: string, trx: Executor): Promise<number> {
    const last = await trx
      .selectFrom('repo_commits')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('repo_id', '=', repoId)
      .executeTakeFirst();
    return Number(last?.seq ?? 0);
  }

  async insertCommit(row: RepoCommitsTable, trx: Executor): Promise<void> {
    await trx.insertInto('repo_commits').values(row).execute();
  }

  commitBySha(repoId: string, sha: string, db: Executor = this.db) {
    return db
      .selectFrom('repo_commits')
      .select(['id', 'branch_id'])
      .where('repo_id', '=', repoId)
      .where('sha', '=', sha)
      .executeTakeFirst();
  }

  /** Up to two commits whose sha starts with `prefix` (two mean it is ambiguous). */
  commitsByPrefix(repoId: string, prefix: string) {
    return this.db
      .selectFrom('repo_commits')
      .select(['id', 'sha'])
      .where('repo_id', '=', repoId)
      .where('sha', 'like', `${prefix}%`)
      .limit(2)
      .execute();
  }

  /** Legacy patches and commits of every branch, as patches (unsorted). */
  patchesAndCommits(repoId: string) {
    return this.db
      .selectFrom('repo_patches')
      .select(['patch_hash', 'message', 'created_at as timestamp'])
      .where('repo_id', '=', repoId)
      .unionAll(
        this.db
          .selectFrom('repo_commits')
          .select(['sha as patch_hash', 'message', 'created_at as timestamp'])
          .where('repo_id', '=', repoId),
      )
      .execute();
  }

  async insertPatch(
    row: {
      id: string;
      repo_id: string;
      patch_hash: string;
      message: string | null;
      created_at: string;
    },
    trx: Executor,
  ): Promise<void> {
    await trx.insertInto('repo_patches').values(row).execute();
  }

  // ---- bounces ----

  /** Bounces with their repository, branch and commit names. */
  bounceQuery() {
    return this.db
      .selectFrom('bounces as x')
      .innerJoin('repos as r', 'r.id', 'x.repo_id')
      .innerJoin('repo_branches as b', 'b.id', 'x.branch_id')
      .innerJoin('repo_commits as c', 'c.id', 'x.commit_id')
      .selectAll('x')
      .select([
        'r.name as repo_name',
        'r.cover_key as cover_key',
        'b.name as branch_name',
        'c.sha as commit_sha',
      ]);
  }

  /** The newest 1000 bounces of a repository (of one branch when given). */
  bouncesOf(repoId: string, branchId?: string): Promise<BounceRow[]> {
    let query = this.bounceQuery().where('x.repo_id', '=', repoId);
    if (branchId !== undefined) query = query.where('x.branch_id', '=', branchId);
    return query.orderBy('x.created_at', 'desc').orderBy('c.seq', 'desc').limit(1000).execute();
  }

  bouncesOfCommit(commitId: string): Promise<BounceRow[]> {
    return this.bounceQuery()
      .where('x.commit_id', '=', commitId)
      .orderBy('x.created_at', 'desc')
      .execute();
  }

  bounceInRepo(repoId: string, bounceId: string): Promise<BounceRow | undefined> {
    return this.bounceQuery()
      .where('x.repo_id', '=', repoId)
      .where('x.id', '=', bounceId)
      .executeTakeFirst();
  }

  bounceById(bounceId: string): Promise<BounceRow | undefined> {
    return this.bounceQuery().where('x.id', '=', bounceId).executeTakeFirst();
  }

  /** The newest bounces of every repository the person owns or is a member of. */
  recentBounces(userId: string, limit: number): Promise<BounceRow[]> {
    return this.bounceQuery()
      .innerJoin(repoRolesOf(this.db, userId).as('access'), 'access.repo_id', 'r.id')
      .orderBy('x.created_at', 'desc')
      .limit(limit)
      .execute();
  }

  /** The newest versions of every project the person may read (the feed's legacy part). */
  recentVersions(userId: string, limit: number) {
    return recentVersions(this.db, userId, limit);
  }

  bounceRow(
    repoId: string,
    bounceId: string,
    db: Executor = this.db,
  ): Promise<BouncesTable | undefined> {
    return db
      .selectFrom('bounces')
      .selectAll()
      .where('repo_id', '=', repoId)
      .where('id', '=', bounceId)
      .executeTakeFirst();
  }

  bounceRowsOf(repoId: string, trx: Executor): Promise<BouncesTable[]> {
    return trx.selectFrom('bounces').selectAll().where('repo_id', '=', repoId).execute();
  }

  async insertBounce(row: BouncesTable, trx: Executor): Promise<void> {
    await trx.insertInto('bounces').values(row).execute();
  }

  async deleteBounce(bounceId: string, trx: Executor): Promise<void> {
    await trx.deleteFrom('bounces').where('id', '=', bounceId).execute();
  }

  /** Object keys of a repository's uploads not yet completed (they go with it). */
  /** The stored audio of guests' files waiting on a repository (they go with it). */
  guestFilesAudio(repoId: string, trx: Executor) {
    return trx
      .selectFrom('guest_files')
      .select(['original_key', 'renditions', 'waveform'])
      .where('repo_id', '=', repoId)
      .execute();
  }

  openUploadKeys(repoId: string, trx: Executor) {
    return trx
      .selectFrom('bounce_uploads')
      .select('object_key')
      .where('repo_id', '=', repoId)
      .where('status', '!=', 'completed')
      .execute();
  }

  private summaryQuery() {
    return this.db
      .selectFrom('repos as r')
      .selectAll('r')
      .select((eb) => [
        eb
          .selectFrom('repo_commits as c')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('c.repo_id', '=', 'r.id')
          .as('commit_count'),
        eb
          .selectFrom('repo_patches as p')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('p.repo_id', '=', 'r.id')
          .as('legacy_count'),
        eb
          .selectFrom('bounces as x')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('x.repo_id', '=', 'r.id')
          .as('bounce_count'),
        eb
          .selectFrom('repo_branches as b')
          .select('b.name')
          .whereRef('b.repo_id', '=', 'r.id')
          .where('b.is_default', '=', 1)
          .as('default_branch'),
      ]);
  }
}
