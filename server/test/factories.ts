import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { previewOf } from '../src/modules/audio/previews';
import { SESSION_COOKIE_PREFIX } from '../src/auth/auth';
import type {
  BouncesTable,
  Branch,
  CollectionItemsTable,
  CollectionLinksTable,
  CollectionsTable,
  Database,
  MemberRole,
  ProjectRow,
  RepoBranchesTable,
  RepoCommitsTable,
  ReposTable,
  UsersTable,
  VersionsTable,
} from '../src/db/schema';
import { storageKeys } from '../src/modules/audio';
import type { ObjectStore } from '../src/storage/object-store';
import { TEST_SECRET_KEY } from './test-app';
import { testDialect } from './test-database';

/**
 * Rows inserted directly, for tests that are not about the HTTP call that would make them
 * (as Outline's server/test/factories.ts). Each builder takes overrides and returns the rows.
 * Times default to now; pass `created_at` where a test orders rows by time.
 */

/** What the audio builders write to: the test app's database and object store. */
export interface FactoryDeps {
  db: Kysely<Database>;
  storage: ObjectStore;
}

/** The factory deps of a test app. */
export function depsOf(t: { deps: { database: { db: Kysely<Database> }; storage: ObjectStore } }) {
  return { db: t.deps.database.db, storage: t.deps.storage };
}

export interface BuiltUser extends UsersTable {
  /** A Cookie header value signed in as this user, on any test app. */
  cookie: string;
}

/**
 * A user with a live session. The session row is written directly and its cookie signed the way
 * better-auth signs it (HMAC-SHA256 of the token with the app's secret, base64, URL-encoded), so
 * no sign-up request is needed. It has no password account: tests of signing in use HTTP.
 */
export async function buildUser(
  db: Kysely<Database>,
  overrides: Partial<UsersTable> = {},
): Promise<BuiltUser> {
  const now = new Date().toISOString();
  const id = overrides.id ?? randomUUID();
  const row: UsersTable = {
    id,
    name: 'Test Person',
    email: `${id}@example.test`,
    email_verified: testDialect() === 'postgres' ? true : 1,
    image: null,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
  await db.insertInto('users').values(row).execute();
  const token = randomBytes(24).toString('base64url');
  await db
    .insertInto('sessions')
    .values({
      id: randomUUID(),
      token,
      user_id: id,
      expires_at: new Date(Date.now() + 30 * 24 * 60 * 60 * 1000).toISOString(),
      ip_address: null,
      user_agent: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const signature = createHmac('sha256', TEST_SECRET_KEY).update(token).digest('base64');
  const cookie = `${SESSION_COOKIE_PREFIX}.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
  return { ...row, cookie };
}

export async function buildRepo(
  db: Kysely<Database>,
  ownerId: string,
  overrides: Partial<ReposTable> = {},
): Promise<ReposTable> {
  const now = new Date().toISOString();
  const name = overrides.name ?? `Repo ${randomUUID().slice(0, 8)}`;
  const row: ReposTable = {
    id: randomUUID(),
    owner_id: ownerId,
    name,
    name_key: name.toLowerCase(),
    cover_key: null,
    cover_type: null,
    created_at: now,
    updated_at: now,
    activity_at: now,
    ...overrides,
  };
  await db.insertInto('repos').values(row).execute();
  return row;
}

/** A project with its default branch `main`, as ProjectsService makes one. */
export async function buildProject(
  db: Kysely<Database>,
  ownerId: string,
  overrides: Partial<ProjectRow> = {},
): Promise<{ project: ProjectRow; branch: Branch }> {
  const now = overrides.created_at ?? new Date().toISOString();
  const project: ProjectRow = {
    id: randomUUID(),
    owner_id: ownerId,
    name: `Project ${randomUUID().slice(0, 8)}`,
    description: null,
    is_private: 1,
    listed: 0,
    created_at: now,
    updated_at: now,
    // Its default branch, below.
    branch_count: 1,
    ...overrides,
  };
  const branch: Branch = {
    id: randomUUID(),
    project_id: project.id,
    name: 'main',
    is_default: 1,
    created_at: now,
    updated_at: now,
    version_count: 0,
  };
  const { branch_count: _count, ...projectRow } = project;
  await db.insertInto('projects').values(projectRow).execute();
  const { version_count: _kept, ...row } = branch;
  await db.insertInto('branches').values(row).execute();
  return { project, branch };
}

/** An audio file stored as an original: by content hash, as intake stores one. */
export interface StoredOriginal {
  key: string;
  size: number;
  format: string;
}

export async function storeOriginal(storage: ObjectStore, file: string): Promise<StoredOriginal> {
  const content = fs.readFileSync(file);
  const key = storageKeys.original(createHash('sha256').update(content).digest('hex'));
  await storage.put(key, Readable.from([content]));
  const extension = path.extname(file).slice(1).toLowerCase();
  return { key, size: content.length, format: extension === 'mp3' ? 'mp3' : extension || 'wav' };
}

/**
 * The processed-audio columns of a completed row, with its renditions and peaks stored (their
 * bytes are the original's: enough for streaming and downloads, which do not decode them).
 */
async function completedAudio(
  storage: ObjectStore,
  rowId: string,
  original: StoredOriginal,
  content: Buffer,
) {
  const renditions: Record<string, { key: string; size: number }> = {};
  for (const quality of ['high', 'standard'] as const) {
    const key = storageKeys.rendition(rowId, quality);
    await storage.put(key, Readable.from([content]));
    renditions[quality] = { key, size: content.length };
  }
  const peaksKey = storageKeys.peaks(rowId);
  // As processing stores it (its own names): two seconds of min/max pairs, 10 a second.
  const minMax = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? -0.5 : 0.5));
  const peaksFile = { version: 1, peaksPerSecond: 10, minMax };
  await storage.put(peaksKey, Readable.from([Buffer.from(JSON.stringify(peaksFile))]));
  const overview = Array.from({ length: 20 }, (_, i) => (i % 10) / 10);
  return {
    original_key: original.key,
    original_format: original.format,
    status: 'completed' as const,
    error: null,
    metadata: JSON.stringify({ duration: 2 }),
    waveform: JSON.stringify({ overview, duration: 2, peaksKey, peaksPerSecond: 10 }),
    loudness: JSON.stringify({ integratedLufs: -14, loudnessRange: 5, truePeakDbfs: -1 }),
    renditions: JSON.stringify(renditions),
  };
}

/**
 * A version on a branch. With `file` its original is stored (so it streams as `original`); with
 * `processed` too it is completed with stored renditions and peaks (so every quality plays).
 */
export async function buildVersion(
  deps: FactoryDeps,
  target: { projectId: string; branchId: string },
  options: { file?: string; processed?: boolean; overrides?: Partial<VersionsTable> } = {},
): Promise<VersionsTable> {
  const now = options.overrides?.created_at ?? new Date().toISOString();
  const id = options.overrides?.id ?? randomUUID();
  const last = await deps.db
    .selectFrom('versions')
    .select((eb) => eb.fn.max('version_number').as('n'))
    .where('branch_id', '=', target.branchId)
    .executeTakeFirst();
  const original = options.file ? await storeOriginal(deps.storage, options.file) : undefined;
  const audio =
    original && options.file && options.processed
      ? await completedAudio(deps.storage, id, original, fs.readFileSync(options.file))
      : {
          original_key: original?.key ?? null,
          original_format: original?.format ?? null,
          status: 'processing' as const,
          error: null,
          metadata: null,
          waveform: null,
          loudness: null,
          renditions: '{}',
        };
  const row: VersionsTable = {
    id,
    project_id: target.projectId,
    branch_id: target.branchId,
    version_number: Number(last?.n ?? 0) + 1,
    message: null,
    tags: '[]',
    original_name: options.file ? path.basename(options.file) : null,
    original_size: original?.size ?? null,
    file_url: null,
    created_at: now,
    updated_at: now,
    review_status: 'in_review',
    ...audio,
    ...options.overrides,
  };
  await deps.db.insertInto('versions').values(row).execute();
  // As the app does: a new version touches its project (stats rely on it).
  await deps.db
    .updateTable('projects')
    .set({ updated_at: row.created_at })
    .where('id', '=', row.project_id)
    .where('updated_at', '<', row.created_at)
    .execute();
  // As processing writes it: a waveform comes with its list and feed preview.
  const preview = previewOf(row.waveform);
  if (preview)
    await deps.db
      .insertInto('version_previews')
      .values({ version_id: row.id, ...preview })
      .execute();
  return row;
}

/**
 * A commit on a repository's branch, made as the commit rules make one: the branch is created
 * on its first commit (the repository's first branch becomes its default), the parent is the
 * branch head and the head moves to the new commit.
 */
export async function buildCommit(
  db: Kysely<Database>,
  repoId: string,
  options: { branch?: string; message?: string; sha?: string; created_at?: string } = {},
): Promise<{ commit: RepoCommitsTable; branch: RepoBranchesTable }> {
  const now = options.created_at ?? new Date().toISOString();
  const name = options.branch ?? 'main';
  let branch = await db
    .selectFrom('repo_branches')
    .selectAll()
    .where('repo_id', '=', repoId)
    .where('name', '=', name)
    .executeTakeFirst();
  if (!branch) {
    const others = await db
      .selectFrom('repo_branches')
      .select('id')
      .where('repo_id', '=', repoId)
      .execute();
    branch = {
      id: randomUUID(),
      repo_id: repoId,
      name,
      is_default: others.length === 0 ? 1 : 0,
      head_sha: null,
      created_at: now,
      updated_at: now,
    };
    await db.insertInto('repo_branches').values(branch).execute();
  }
  const last = await db
    .selectFrom('repo_commits')
    .select((eb) => eb.fn.max('seq').as('n'))
    .where('repo_id', '=', repoId)
    .executeTakeFirst();
  const commit: RepoCommitsTable = {
    id: randomUUID(),
    repo_id: repoId,
    branch_id: branch.id,
    sha: options.sha ?? randomBytes(20).toString('hex'),
    parent_sha: branch.head_sha,
    message: options.message ?? 'A commit',
    seq: Number(last?.n ?? 0) + 1,
    created_at: now,
  };
  await db.insertInto('repo_commits').values(commit).execute();
  await db
    .updateTable('repo_branches')
    .set({ head_sha: commit.sha, updated_at: now })
    .where('id', '=', branch.id)
    .execute();
  const head = { ...branch, head_sha: commit.sha, updated_at: now };
  return { commit, branch: head };
}

/**
 * A completed bounce with its stored original, renditions and peaks, on a commit of `branch`
 * (a new commit, unless one is given): what publish, PUT, complete and processing leave.
 */
export async function publishBounce(
  deps: FactoryDeps,
  repoId: string,
  file: string,
  options: {
    branch?: string;
    commit?: RepoCommitsTable;
    overrides?: Partial<BouncesTable>;
  } = {},
): Promise<BouncesTable & { commit_sha: string }> {
  const now = options.overrides?.created_at ?? new Date().toISOString();
  const filename = path.basename(file);
  const title = filename.replace(/\.[^.]+$/, '');
  const commit =
    options.commit ??
    (
      await buildCommit(deps.db, repoId, {
        branch: options.branch,
        message: `Publish ${title}`,
        created_at: now,
      })
    ).commit;
  const id = options.overrides?.id ?? randomUUID();
  const original = await storeOriginal(deps.storage, file);
  const audio = await completedAudio(deps.storage, id, original, fs.readFileSync(file));
  const row: BouncesTable = {
    id,
    repo_id: repoId,
    branch_id: commit.branch_id,
    commit_id: commit.id,
    title,
    filename,
    mime: original.format === 'mp3' ? 'audio/mpeg' : 'audio/wav',
    original_size: original.size,
    created_at: now,
    ...audio,
    original_key: original.key,
    original_format: original.format,
    updated_at: now,
    ...options.overrides,
  };
  await deps.db.insertInto('bounces').values(row).execute();
  await deps.db
    .updateTable('repos')
    .set({ activity_at: now, updated_at: now })
    .where('id', '=', repoId)
    .execute();
  return { ...row, commit_sha: commit.sha };
}

/**
 * A member of a project or a repository: a new signed-in user (overrides for their row) with a
 * membership row of this role. The owner is the project's/repository's `owner_id`, not a member.
 */
export async function buildMember(
  db: Kysely<Database>,
  target: MemberTarget,
  role: MemberRole,
  overrides: Partial<UsersTable> = {},
): Promise<BuiltUser> {
  const user = await buildUser(db, overrides);
  await addMember(db, target, user.id, role);
  return user;
}

/** What a member belongs to. */
export type MemberTarget = { projectId: string } | { repoId: string } | { collectionId: string };

/** Makes an existing user a member with this role. */
export async function addMember(
  db: Kysely<Database>,
  target: MemberTarget,
  userId: string,
  role: MemberRole,
): Promise<void> {
  const created_at = new Date().toISOString();
  if ('projectId' in target)
    await db
      .insertInto('project_members')
      .values({ project_id: target.projectId, user_id: userId, role, created_at })
      .execute();
  else if ('repoId' in target)
    await db
      .insertInto('repo_members')
      .values({ repo_id: target.repoId, user_id: userId, role, created_at })
      .execute();
  else
    await db
      .insertInto('collection_members')
      .values({ collection_id: target.collectionId, user_id: userId, role, created_at })
      .execute();
}

/**
 * Three people for tests of what a person may read among many: `me` with a project of their own
 * (`mine`), `other` with one `me` may not read (`theirs`), and `sharer` with one `me` is a viewer
 * of (`shared`).
 */
export async function buildReaderWorld(db: Kysely<Database>) {
  const [me, other, sharer] = [await buildUser(db), await buildUser(db), await buildUser(db)];
  const mine = await buildProject(db, me.id);
  const theirs = await buildProject(db, other.id);
  const shared = await buildProject(db, sharer.id);
  await addMember(db, { projectId: shared.project.id }, me.id, 'viewer');
  return { me, other, sharer, mine, theirs, shared };
}

/** ISO times a minute apart from 1 January 2026, each call the next (creation order = time). */
export function minuteClock(): () => string {
  const base = Date.parse('2026-01-01T00:00:00Z');
  let minute = 0;
  return () => new Date(base + ++minute * 60_000).toISOString();
}

/** A collection row of `ownerId` (straight into the table, as migration tests need). */
export async function buildCollection(
  db: Kysely<Database>,
  ownerId: string,
  overrides: Partial<CollectionsTable> = {},
): Promise<CollectionsTable> {
  const now = new Date().toISOString();
  const row: CollectionsTable = {
    id: randomUUID(),
    owner_id: ownerId,
    name: 'Mixes',
    description: null,
    cover_key: null,
    cover_type: null,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
  await db.insertInto('collections').values(row).execute();
  return row;
}

/** An item of a collection: a pinned version, the latest of a branch, or a bounce. */
export async function buildCollectionItem(
  db: Kysely<Database>,
  collection: Pick<CollectionsTable, 'id' | 'owner_id'>,
  target: { version_id: string } | { branch_id: string } | { bounce_id: string },
  position = 0,
): Promise<CollectionItemsTable> {
  const row: CollectionItemsTable = {
    id: randomUUID(),
    collection_id: collection.id,
    position,
    version_id: 'version_id' in target ? target.version_id : null,
    branch_id: 'branch_id' in target ? target.branch_id : null,
    bounce_id: 'bounce_id' in target ? target.bounce_id : null,
    added_by: collection.owner_id,
    created_at: new Date().toISOString(),
  };
  await db.insertInto('collection_items').values(row).execute();
  return row;
}

/** A share link of a collection, straight into the table (no password, not revoked). */
export async function buildCollectionLink(
  db: Kysely<Database>,
  collectionId: string,
  overrides: Partial<CollectionLinksTable> = {},
): Promise<CollectionLinksTable> {
  const row: CollectionLinksTable = {
    id: randomUUID(),
    collection_id: collectionId,
    hash: randomUUID().replaceAll('-', '').slice(0, 22),
    name: 'Label',
    recipient_name: null,
    recipient_email: null,
    expires_at: null,
    download_enabled: 0,
    password_hash: null,
    revoked_at: null,
    created_at: new Date().toISOString(),
    emailed_at: null,
    first_played_at: null,
    ...overrides,
  };
  await db.insertInto('collection_links').values(row).execute();
  return row;
}
