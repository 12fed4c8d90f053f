import { createHash, randomUUID } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import {
  REPO_MESSAGES,
  MAX_COVER_BYTES,
  type Bounce,
  type BounceWaveform,
  type Patch,
  type RecentBounce,
  type RepoBranch,
  type Repository,
  type TimelineCommit,
} from '@takes/contract';
import type { Clock } from '../../clock';
import { isUniqueViolation } from '../../db/unique-violation';
import type {
  BouncesTable,
  Database,
  RepoBranchesTable,
  RepoCommitsTable,
  ReposTable,
} from '../../db/schema';
import { HttpError, notFound } from '../../http/errors';
import { deleteObjectsJob } from '../../jobs/catalog';
import type { JobQueue } from '../../jobs/job-queue';
import { ImageSniffer, UnsupportedImageError } from '../../media/image-type';
import { ObjectTooLargeError, type ObjectStore } from '../../storage/object-store';
import { parseJson, type Renditions, type WaveformInfo } from '../versions/version-view';
import { pickAudio, type StoredAudio } from '../versions/versions.service';
import { queueCleanup } from './stored-audio';

export interface ReposDeps {
  db: Kysely<Database>;
  clock: Clock;
  jobs: JobQueue;
  storage: ObjectStore;
  desktopScheme: string;
}

type Quality = 'original' | 'high' | 'standard';

const NOT_FOUND = 'Repository not found';

/**
 * Repositories, their branches, commits and legacy patches, bounces and covers. Every read
 * and write is scoped to the owner: another person's repository answers as a missing one.
 */
export class ReposService {
  constructor(private readonly deps: ReposDeps) {}

  // ---- repositories ----

  async list(ownerId: string): Promise<Repository[]> {
    const rows = await this.summaryQuery()
      .where('r.owner_id', '=', ownerId)
      .orderBy('r.activity_at', 'desc')
      .orderBy('r.name', 'asc')
      .execute();
    return rows.map((row) => this.toRepository(row));
  }

  async get(ownerId: string, repoId: string): Promise<Repository> {
    const row = await this.summaryQuery()
      .where('r.owner_id', '=', ownerId)
      .where('r.id', '=', repoId)
      .executeTakeFirst();
    if (!row) throw notFound(NOT_FOUND);
    return this.toRepository(row);
  }

  async create(ownerId: string, name: string): Promise<Repository> {
    const now = this.now();
    const id = randomUUID();
    try {
      await this.deps.db
        .insertInto('repos')
        .values({
          id,
          owner_id: ownerId,
          name,
          name_key: name.toLowerCase(),
          cover_key: null,
          cover_type: null,
          created_at: now,
          updated_at: now,
          activity_at: now,
        })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, REPO_MESSAGES.repoExists);
      throw error;
    }
    return this.get(ownerId, id);
  }

  async rename(ownerId: string, repoId: string, name: string): Promise<Repository> {
    await this.owned(ownerId, repoId);
    const now = this.now();
    try {
      await this.deps.db
        .updateTable('repos')
        .set({ name, name_key: name.toLowerCase(), updated_at: now, activity_at: now })
        .where('id', '=', repoId)
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, REPO_MESSAGES.repoExists);
      throw error;
    }
    return this.get(ownerId, repoId);
  }

  /** Removes the repository and everything under it; stored audio no one uses any more goes too. */
  async delete(ownerId: string, repoId: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const repo = await this.owned(ownerId, repoId, trx);
      const bounces = await trx
        .selectFrom('bounces')
        .selectAll()
        .where('repo_id', '=', repoId)
        .execute();
      const uploads = await trx
        .selectFrom('bounce_uploads')
        .select('object_key')
        .where('repo_id', '=', repoId)
        .where('status', '!=', 'completed')
        .execute();
      await trx.deleteFrom('repos').where('id', '=', repoId).execute();
      // Every key, however many: the job lists them from the clean-up table in batches.
      await queueCleanup(trx, this.deps, {
        objects: [...bounces.flatMap(ownedBounceKeys), ...(repo.cover_key ? [repo.cover_key] : [])],
        originals: [
          ...bounces.map((b) => b.original_key),
          ...uploads.map((u) => u.object_key).filter((k): k is string => !!k),
        ],
      });
    });
    this.deps.jobs.notify();
  }

  async setCover(ownerId: string, repoId: string, file: Readable): Promise<string> {
    await this.owned(ownerId, repoId);
    const sniffer = new ImageSniffer();
    pipeline(file, sniffer, () => undefined);
    const key = `covers/${repoId}/${randomUUID()}`;
    try {
      await this.deps.storage.put(key, sniffer, { maxBytes: MAX_COVER_BYTES });
    } catch (error) {
      if (error instanceof UnsupportedImageError)
        throw new HttpError(415, REPO_MESSAGES.coverInvalid);
      if (error instanceof ObjectTooLargeError)
        throw new HttpError(413, REPO_MESSAGES.coverTooLarge);
      throw error;
    }
    const type = sniffer.type?.mime ?? 'application/octet-stream';
    const now = this.now();
    const stillThere = await this.deps.db.transaction().execute(async (trx) => {
      const repo = await trx
        .selectFrom('repos')
        .select(['cover_key'])
        .where('id', '=', repoId)
        .where('owner_id', '=', ownerId)
        .executeTakeFirst();
      if (!repo) return false;
      await trx
        .updateTable('repos')
        .set({ cover_key: key, cover_type: type, updated_at: now, activity_at: now })
        .where('id', '=', repoId)
        .execute();
      if (repo.cover_key)
        await this.deps.jobs.enqueue(
          deleteObjectsJob,
          { keys: [repo.cover_key] },
          { executor: trx },
        );
      return true;
    });
    if (!stillThere) {
      await this.deps.storage.delete(key);
      throw notFound(NOT_FOUND);
    }
    this.deps.jobs.notify();
    return coverUrl(repoId, key);
  }

  async cover(ownerId: string, repoId: string): Promise<{ key: string; contentType: string }> {
    const repo = await this.owned(ownerId, repoId);
    if (!repo.cover_key) throw notFound('This repository has no cover');
    return { key: repo.cover_key, contentType: repo.cover_type ?? 'application/octet-stream' };
  }

  // ---- branches ----

  async branches(ownerId: string, repoId: string): Promise<RepoBranch[]> {
    await this.owned(ownerId, repoId);
    const rows = await this.deps.db
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
    return rows.map((b) => ({
      name: b.name,
      is_default: b.is_default === 1,
      head_sha: b.head_sha,
      commit_count: Number(b.commit_count ?? 0),
      bounce_count: Number(b.bounce_count ?? 0),
      created_at: b.created_at,
      updated_at: b.updated_at,
    }));
  }

  async createBranch(
    ownerId: string,
    repoId: string,
    name: string,
    from?: string,
  ): Promise<RepoBranch> {
    await this.deps.db.transaction().execute(async (trx) => {
      await this.owned(ownerId, repoId, trx);
      let head: string | null = null;
      if (from) {
        const source = await this.findBranch(repoId, from, trx);
        if (!source) throw notFound(REPO_MESSAGES.branchNotFound);
        head = source.head_sha;
      }
      if (await this.findBranch(repoId, name, trx))
        throw new HttpError(409, REPO_MESSAGES.branchExists);
      await this.insertBranch(trx, repoId, name, head);
    });
    const branch = (await this.branches(ownerId, repoId)).find((b) => b.name === name);
    if (!branch) throw notFound(REPO_MESSAGES.branchNotFound);
    return branch;
  }

  // ---- commits and patches ----

  async commits(
    ownerId: string,
    repoId: string,
    branchName: string | undefined,
    limit: number,
  ): Promise<TimelineCommit[]> {
    await this.owned(ownerId, repoId);
    const branch = branchName
      ? await this.findBranch(repoId, branchName)
      : await this.deps.db
          .selectFrom('repo_branches')
          .selectAll()
          .where('repo_id', '=', repoId)
          .where('is_default', '=', 1)
          .executeTakeFirst();
    if (!branch) {
      if (!branchName) return [];
      throw notFound(REPO_MESSAGES.branchNotFound);
    }
    const rows = await this.deps.db
      .selectFrom('repo_commits as c')
      .selectAll('c')
      .select((eb) =>
        eb
          .exists(eb.selectFrom('bounces as x').select('x.id').whereRef('x.commit_id', '=', 'c.id'))
          .as('has_bounce'),
      )
      .where('c.branch_id', '=', branch.id)
      .orderBy('c.seq', 'desc')
      .limit(limit)
      .execute();
    return rows.map((c) => toCommit(c, branch.name, !!c.has_bounce));
  }

  /**
   * Creates a commit on a branch (the branch too, when it is new: the repository's first
   * branch becomes its default). The head moves only if it is still what the caller saw.
   */
  async createCommit(
    ownerId: string,
    repoId: string,
    input: { branch: string; message: string; sha?: string | undefined; parent?: string | null },
  ): Promise<TimelineCommit> {
    for (let attempt = 1; ; attempt++) {
      try {
        const row = await this.deps.db
          .transaction()
          .execute((trx) => this.insertCommit(trx, ownerId, repoId, input));
        return toCommit(row, input.branch, false);
      } catch (error) {
        // Two first commits racing to create one branch: the loser tries again once.
        if (attempt < 3 && isUniqueViolation(error) && !input.sha) continue;
        if (isUniqueViolation(error)) throw new HttpError(409, REPO_MESSAGES.shaExists);
        throw error;
      }
    }
  }

  async insertCommit(
    trx: Kysely<Database>,
    ownerId: string,
    repoId: string,
    input: { branch: string; message: string; sha?: string | undefined; parent?: string | null },
  ): Promise<RepoCommitsTable> {
    await this.owned(ownerId, repoId, trx);
    const now = this.now();
    const branch =
      (await this.findBranch(repoId, input.branch, trx)) ??
      (await this.insertBranch(trx, repoId, input.branch, null));
    const parent = input.parent === undefined ? branch.head_sha : input.parent;
    if (input.parent !== undefined && input.parent !== branch.head_sha)
      throw new HttpError(409, REPO_MESSAGES.parentNotOnBranch);
    const sha =
      input.sha ??
      createHash('sha1')
        .update(`${repoId}\n${parent ?? ''}\n${input.branch}\n${input.message}\n${now}\n`)
        .update(randomUUID())
        .digest('hex');
    const last = await trx
      .selectFrom('repo_commits')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('repo_id', '=', repoId)
      .executeTakeFirst();
    const row: RepoCommitsTable = {
      id: randomUUID(),
      repo_id: repoId,
      branch_id: branch.id,
      sha,
      parent_sha: parent,
      message: input.message,
      seq: Number(last?.seq ?? 0) + 1,
      created_at: now,
    };
    await trx.insertInto('repo_commits').values(row).execute();
    // Moves the head only from the value read above: a concurrent commit makes this miss.
    const moved = await trx
      .updateTable('repo_branches')
      .set({ head_sha: sha, updated_at: now })
      .where('id', '=', branch.id)
      .where('head_sha', branch.head_sha === null ? 'is' : '=', branch.head_sha)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1)
      throw new HttpError(409, REPO_MESSAGES.parentNotOnBranch);
    await this.touch(trx, repoId, now);
    return row;
  }

  /** Legacy patches and commits of every branch, as patches, newest first. */
  async patches(
    ownerId: string,
    repoId: string,
    limit: number,
    offset: number,
  ): Promise<{ data: Patch[]; total: number }> {
    await this.owned(ownerId, repoId);
    const rows = await this.deps.db
      .selectFrom('repo_patches')
      .select(['patch_hash', 'message', 'created_at as timestamp'])
      .where('repo_id', '=', repoId)
      .unionAll(
        this.deps.db
          .selectFrom('repo_commits')
          .select(['sha as patch_hash', 'message', 'created_at as timestamp'])
          .where('repo_id', '=', repoId),
      )
      .execute();
    rows.sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0));
    return { data: rows.slice(offset, offset + limit), total: rows.length };
  }

  async createPatch(
    ownerId: string,
    repoId: string,
    input: { message?: string | null | undefined; patch_hash?: string | undefined },
  ): Promise<Patch> {
    await this.owned(ownerId, repoId);
    const now = this.now();
    const patch_hash =
      input.patch_hash ??
      createHash('sha1')
        .update(`${repoId}\n${input.message ?? ''}\n${now}\n${randomUUID()}`)
        .digest('hex');
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('repo_patches')
          .values({
            id: randomUUID(),
            repo_id: repoId,
            patch_hash,
            message: input.message ?? null,
            created_at: now,
          })
          .execute();
        await this.touch(trx, repoId, now);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, REPO_MESSAGES.shaExists);
      throw error;
    }
    return { patch_hash, message: input.message ?? null, timestamp: now };
  }

  // ---- bounces ----

  async bounces(ownerId: string, repoId: string, branchName?: string): Promise<Bounce[]> {
    const repo = await this.owned(ownerId, repoId);
    let query = this.bounceQuery().where('x.repo_id', '=', repoId);
    if (branchName) {
      const branch = await this.findBranch(repoId, branchName);
      if (!branch) throw notFound(REPO_MESSAGES.branchNotFound);
      query = query.where('x.branch_id', '=', branch.id);
    }
    // The spec's limit: the newest 1000 bounces of a repository.
    const rows = await query
      .orderBy('x.created_at', 'desc')
      .orderBy('c.seq', 'desc')
      .limit(1000)
      .execute();
    return rows.map((row) => toBounce(row, repo.name));
  }

  async commitBounces(ownerId: string, repoId: string, sha: string): Promise<Bounce[]> {
    const repo = await this.owned(ownerId, repoId);
    const wanted = sha.toLowerCase();
    if (!/^[0-9a-f]{7,64}$/.test(wanted)) throw notFound(REPO_MESSAGES.commitNotFound);
    const commits = await this.deps.db
      .selectFrom('repo_commits')
      .select(['id', 'sha'])
      .where('repo_id', '=', repoId)
      .where('sha', 'like', `${wanted}%`)
      .limit(2)
      .execute();
    const exact = commits.find((c) => c.sha === wanted);
    const commit = exact ?? (commits.length === 1 ? commits[0] : undefined);
    if (!commit) throw notFound(REPO_MESSAGES.commitNotFound);
    const rows = await this.bounceQuery()
      .where('x.commit_id', '=', commit.id)
      .orderBy('x.created_at', 'desc')
      .execute();
    return rows.map((row) => toBounce(row, repo.name));
  }

  async bounce(ownerId: string, repoId: string, bounceId: string): Promise<Bounce> {
    const repo = await this.owned(ownerId, repoId);
    const row = await this.bounceQuery()
      .where('x.repo_id', '=', repoId)
      .where('x.id', '=', bounceId)
      .executeTakeFirst();
    if (!row) throw notFound('Bounce not found');
    return toBounce(row, repo.name);
  }

  async deleteBounce(ownerId: string, repoId: string, bounceId: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      await this.owned(ownerId, repoId, trx);
      const row = await trx
        .selectFrom('bounces')
        .selectAll()
        .where('repo_id', '=', repoId)
        .where('id', '=', bounceId)
        .executeTakeFirst();
      if (!row) throw notFound('Bounce not found');
      await trx.deleteFrom('bounces').where('id', '=', bounceId).execute();
      await this.touch(trx, repoId, this.now());
      await queueCleanup(trx, this.deps, {
        objects: ownedBounceKeys(row),
        originals: [row.original_key],
      });
    });
    this.deps.jobs.notify();
  }

  /** What to stream for a quality: its rendition, or the original until renditions exist. */
  async bounceAudio(
    ownerId: string,
    repoId: string,
    bounceId: string,
    quality: Quality,
  ): Promise<StoredAudio> {
    await this.owned(ownerId, repoId);
    const row = await this.deps.db
      .selectFrom('bounces')
      .selectAll()
      .where('repo_id', '=', repoId)
      .where('id', '=', bounceId)
      .executeTakeFirst();
    if (!row) throw notFound('Bounce not found');
    return pickAudio(row, quality);
  }

  /** Newest bounces of every repository; with `all`, legacy project versions too. */
  async recent(ownerId: string, limit: number, all: boolean): Promise<RecentBounce[]> {
    const bounceRows = await this.bounceQuery()
      .where('r.owner_id', '=', ownerId)
      .orderBy('x.created_at', 'desc')
      .limit(limit)
      .execute();
    const items: RecentBounce[] = bounceRows.map((row) => {
      const b = toBounce(row, row.repo_name);
      return {
        kind: 'bounce',
        id: b.id,
        title: b.title,
        created_at: b.created_at,
        duration: b.duration,
        stream_url: b.stream_url,
        waveform_json: b.waveform_json,
        repo_id: b.repo_id,
        repo_name: b.repo_name,
        branch: b.branch,
        commit_sha: b.commit_sha,
        cover_url: row.cover_key ? coverUrl(row.repo_id, row.cover_key) : null,
        project_id: null,
        project_name: null,
        version_number: null,
      };
    });
    if (all) {
      const versions = await this.deps.db
        .selectFrom('versions as v')
        .innerJoin('projects as p', 'p.id', 'v.project_id')
        .select([
          'v.id',
          'v.created_at',
          'v.metadata',
          'v.waveform',
          'v.version_number',
          'v.message',
          'v.original_key',
          'v.file_url',
          'p.id as project_id',
          'p.name as project_name',
        ])
        .where('p.owner_id', '=', ownerId)
        .where((eb) =>
          eb.or([eb('v.original_key', 'is not', null), eb('v.file_url', 'is not', null)]),
        )
        .orderBy('v.created_at', 'desc')
        .limit(limit)
        .execute();
      for (const v of versions) {
        const waveform = parseJson<WaveformInfo | null>(v.waveform, null);
        const metadata = parseJson<{ duration?: number | null } | null>(v.metadata, null);
        items.push({
          kind: 'version',
          id: v.id,
          title: v.project_name,
          created_at: v.created_at,
          duration: metadata?.duration ?? waveform?.duration ?? null,
          stream_url: v.original_key ? `/api/versions/${v.id}/stream` : (v.file_url ?? ''),
          waveform_json: waveformJson(waveform, metadata?.duration ?? null),
          repo_id: null,
          repo_name: null,
          branch: null,
          commit_sha: null,
          cover_url: null,
          project_id: v.project_id,
          project_name: v.project_name,
          version_number: v.version_number,
        });
      }
      items.sort((a, b) =>
        a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0,
      );
    }
    return items.slice(0, limit);
  }

  // ---- helpers shared with publishing ----

  async owned(ownerId: string, repoId: string, executor?: Kysely<Database>): Promise<ReposTable> {
    const repo = await (executor ?? this.deps.db)
      .selectFrom('repos')
      .selectAll()
      .where('id', '=', repoId)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    if (!repo) throw notFound(NOT_FOUND);
    return repo;
  }

  findBranch(
    repoId: string,
    name: string,
    executor?: Kysely<Database>,
  ): Promise<RepoBranchesTable | undefined> {
    return (executor ?? this.deps.db)
      .selectFrom('repo_branches')
      .selectAll()
      .where('repo_id', '=', repoId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  async insertBranch(
    trx: Kysely<Database>,
    repoId: string,
    name: string,
    head: string | null,
  ): Promise<RepoBranchesTable> {
    const now = this.now();
    const hasDefault = await trx
      .selectFrom('repo_branches')
      .select('id')
      .where('repo_id', '=', repoId)
      .where('is_default', '=', 1)
      .executeTakeFirst();
    const row: RepoBranchesTable = {
      id: randomUUID(),
      repo_id: repoId,
      name,
      is_default: hasDefault ? 0 : 1,
      head_sha: head,
      created_at: now,
      updated_at: now,
    };
    await trx.insertInto('repo_branches').values(row).execute();
    await this.touch(trx, repoId, now);
    return row;
  }

  async touch(executor: Kysely<Database>, repoId: string, now: string): Promise<void> {
    await executor
      .updateTable('repos')
      .set({ activity_at: now })
      .where('id', '=', repoId)
      .execute();
  }

  async bounceById(ownerId: string, bounceId: string): Promise<Bounce> {
    const row = await this.bounceQuery()
      .where('r.owner_id', '=', ownerId)
      .where('x.id', '=', bounceId)
      .executeTakeFirst();
    if (!row) throw notFound('Bounce not found');
    return toBounce(row, row.repo_name);
  }

  private bounceQuery() {
    return this.deps.db
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

  private summaryQuery() {
    return this.deps.db
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

  private toRepository(
    row: ReposTable & {
      commit_count: number | null;
      legacy_count: number | null;
      bounce_count: number | null;
      default_branch: string | null;
    },
  ): Repository {
    const branch = row.default_branch ?? 'main';
    return {
      id: row.id,
      name: row.name,
      cover_url: row.cover_key ? coverUrl(row.id, row.cover_key) : null,
      created_at: row.created_at,
      updated_at: row.updated_at,
      last_activity_at: row.activity_at,
      patch_count: Number(row.commit_count ?? 0) + Number(row.legacy_count ?? 0),
      bounce_count: Number(row.bounce_count ?? 0),
      default_branch: row.default_branch,
      pull_url: `${this.deps.desktopScheme}://pull?repo=${encodeURIComponent(row.id)}&branch=${encodeURIComponent(branch)}`,
    };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

function toCommit(c: RepoCommitsTable, branch: string, hasBounce: boolean): TimelineCommit {
  return {
    sha: c.sha,
    message: c.message,
    parent_sha: c.parent_sha,
    branch,
    created_at: c.created_at,
    hasBounce,
  };
}

function coverUrl(repoId: string, key: string): string {
  return `/api/repos/${repoId}/cover?v=${key.split('/').pop() ?? ''}`;
}

function toBounce(
  row: BouncesTable & { branch_name: string; commit_sha: string },
  repoName: string,
): Bounce {
  const metadata = parseJson<{ duration?: number | null } | null>(row.metadata, null);
  const waveform = parseJson<WaveformInfo | null>(row.waveform, null);
  const duration = metadata?.duration ?? waveform?.duration ?? null;
  return {
    id: row.id,
    repo_id: row.repo_id,
    repo_name: repoName,
    branch: row.branch_name,
    commit_sha: row.commit_sha,
    title: row.title,
    filename: row.filename,
    mime: row.mime,
    size: Number(row.original_size),
    duration,
    created_at: row.created_at,
    status: row.status,
    error: row.error,
    waveform_json: waveformJson(waveform, duration),
    loudness: parseJson(row.loudness, null),
    stream_url: `/api/repos/${row.repo_id}/bounces/${row.id}/stream`,
  };
}

function waveformJson(
  waveform: WaveformInfo | null,
  duration: number | null,
): BounceWaveform | null {
  if (!waveform) return null;
  const length = waveform.duration ?? duration ?? 0;
  if (waveform.overviewMinMax) return { ...waveform.overviewMinMax, duration: length };
  return {
    min: waveform.overview.map((p) => -p),
    max: waveform.overview,
    duration: length,
  };
}

/** Keys only this bounce owns (renditions, peaks); the original may be shared. */
export function ownedBounceKeys(row: BouncesTable): string[] {
  const renditions = parseJson<Renditions>(row.renditions, {});
  const waveform = parseJson<WaveformInfo | null>(row.waveform, null);
  return [renditions.high?.key, renditions.standard?.key, waveform?.peaksKey].filter(
    (k): k is string => !!k,
  );
}
