/**
 * The API benchmark's accounts, written straight into the database (through the API this would
 * take hours): a big account with a long history and a small one, plus other people whose rows
 * share the tables. Sizes follow issue 18: 1,000 projects × 3 branches, 10,000 versions, 500
 * links and 20,000 comments for the big account; 50 others with 20 projects each.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { previewOf } from '../src/modules/audio/previews';
import type {
  NewBranch,
  CommentsTable,
  Database,
  LinksTable,
  NewProject,
  UsersTable,
  VersionsTable,
} from '../src/db/schema';

export interface SeedSizes {
  projects: number;
  branchesPerProject: number;
  versions: number;
  links: number;
  comments: number;
}

export const BIG: SeedSizes = {
  projects: 1000,
  branchesPerProject: 3,
  versions: 10_000,
  links: 500,
  comments: 20_000,
};
export const SMALL: SeedSizes = {
  projects: 3,
  branchesPerProject: 1,
  versions: 6,
  links: 2,
  comments: 10,
};
export const OTHERS = 50;
export const OTHERS_PROJECTS = 20;

const WORDS = [
  'mix',
  'master',
  'demo',
  'take',
  'bounce',
  'vocal',
  'drums',
  'bass',
  'final',
  'rough',
];

/** A waveform overview like processing stores: 1,000 peaks (a few KB of JSON per row). */
function waveformJson(i: number): string {
  const overview = Array.from({ length: 1000 }, (_, k) =>
    Number((0.2 + 0.7 * Math.abs(Math.sin((k + i) / 17))).toFixed(3)),
  );
  return JSON.stringify({
    overview,
    peaksKey: `peaks/${i}.json`,
    peaksPerSecond: 20,
    duration: 215.3,
  });
}

const METADATA = JSON.stringify({
  duration: 215.3,
  codec: 'pcm_s24le',
  container: 'wav',
  sampleRate: 48000,
  channels: 2,
  bitDepth: 24,
  bitRate: 2304000,
});
const LOUDNESS = JSON.stringify({ integratedLufs: -9.8, loudnessRange: 5.1, truePeakDbfs: -0.4 });

async function insertChunked<T>(
  db: Kysely<Database>,
  rows: T[],
  insert: (db: Kysely<Database>, chunk: T[]) => Promise<unknown>,
  size = 200,
) {
  for (let i = 0; i < rows.length; i += size) await insert(db, rows.slice(i, i + size));
}

/** One person's projects, branches, versions, links and comments, `sizes` of them. */
export async function seedAccount(
  db: Kysely<Database>,
  userId: string,
  sizes: SeedSizes,
  label: string,
): Promise<{ projectIds: string[]; versionIds: string[] }> {
  const base = Date.parse('2025-01-01T00:00:00.000Z');
  const at = (n: number) => new Date(base + n * 60_000).toISOString();
  const projects: NewProject[] = [];
  const branches: NewBranch[] = [];
  for (let p = 0; p < sizes.projects; p++) {
    const id = randomUUID();
    projects.push({
      id,
      owner_id: userId,
      name: `${label} ${WORDS[p % WORDS.length]} ${p}`,
      description: p % 3 === 0 ? `Sessions for song ${p}` : null,
      is_private: 1,
      listed: 0,
      created_at: at(p),
      updated_at: at(p),
    });
    for (let b = 0; b < sizes.branchesPerProject; b++)
      branches.push({
        id: randomUUID(),
        project_id: id,
        name: b === 0 ? 'main' : `alt ${b}`,
        is_default: b === 0 ? 1 : 0,
        created_at: at(p),
        updated_at: at(p),
      });
  }
  const versions: VersionsTable[] = [];
  const counters = new Map<string, number>();
  for (let v = 0; v < sizes.versions; v++) {
    const branch = branches[v % branches.length]!;
    const number = (counters.get(branch.id) ?? 0) + 1;
    counters.set(branch.id, number);
    const id = randomUUID();
    versions.push({
      id,
      project_id: branch.project_id,
      branch_id: branch.id,
      version_number: number,
      // 'mix' is common (in about 30 % of the messages and tags, issue 51): the first word of
      // one message in ten, the tag of one in ten, and 'new mix' in one in ten; 'ukulele' is rare
      // (one in 200).
      message: `${WORDS[v % WORDS.length]} pass ${v}${v % 10 === 5 ? ' (new mix)' : ''}${v % 200 === 17 ? ' with ukulele' : ''}`,
      tags: JSON.stringify([WORDS[(v + 3) % WORDS.length]]),
      original_key: `originals/${v}.wav`,
      original_name: `${WORDS[v % WORDS.length]} ${v}.wav`,
      original_size: 50_000_000,
      original_format: 'wav',
      status: 'completed',
      error: null,
      metadata: METADATA,
      waveform: waveformJson(v),
      loudness: LOUDNESS,
      renditions: JSON.stringify({
        high: { key: `renditions/${v}-high.mp3`, size: 8_600_000 },
        standard: { key: `renditions/${v}-standard.mp3`, size: 3_400_000 },
        // Made already, as on an instance whose backfill has run: otherwise the backfill job
        // (media.lossless-backfill) would try every seeded row while the endpoints are measured.
        lossless: { key: `renditions/${id}/lossless.flac`, size: 30_000_000 },
      }),
      file_url: null,
      review_status: 'in_review',
      created_at: at(sizes.projects + v),
      updated_at: at(sizes.projects + v),
    });
  }
  const links: LinksTable[] = versions.slice(0, sizes.links).map((v, i) => ({
    id: randomUUID(),
    hash: randomUUID().replaceAll('-', '').slice(0, 22),
    version_id: v.id,
    project_id: v.project_id,
    owner_id: userId,
    name: `Link ${i}`,
    download_enabled: 0,
    expires_at: null,
    revoked_at: null,
    created_at: v.created_at,
    listeners_see_each_other: 1,
    play_count: i % 7,
    last_played_at: null,
    allow_approval: 0,
    password_hash: null,
  }));
  const comments: CommentsTable[] = Array.from({ length: sizes.comments }, (_, c) => {
    const v = versions[c % versions.length]!;
    return {
      id: randomUUID(),
      version_id: v.id,
      user_id: userId,
      visitor_name: null,
      link_id: null,
      parent_id: null,
      content: `Comment ${c}: the ${WORDS[c % WORDS.length]} needs work`,
      timestamp_seconds: c % 200,
      end_timestamp_seconds: null,
      resolved_at: null,
      created_at: at(sizes.projects + sizes.versions + c),
      team_only: 0,
    };
  });
  await db.transaction().execute(async (trx) => {
    await insertChunked(trx, projects, (d, chunk) =>
      d.insertInto('projects').values(chunk).execute(),
    );
    await insertChunked(trx, branches, (d, chunk) =>
      d.insertInto('branches').values(chunk).execute(),
    );
    await insertChunked(
      trx,
      versions,
      (d, chunk) => d.insertInto('versions').values(chunk).execute(),
      50,
    );
    const previews = versions.flatMap((v) => {
      const preview = previewOf(v.waveform);
      return preview ? [{ version_id: v.id, ...preview }] : [];
    });
    await insertChunked(trx, previews, (d, chunk) =>
      d.insertInto('version_previews').values(chunk).execute(),
    );
    await insertChunked(trx, links, (d, chunk) => d.insertInto('links').values(chunk).execute());
    await insertChunked(trx, comments, (d, chunk) =>
      d.insertInto('comments').values(chunk).execute(),
    );
  });
  return { projectIds: projects.map((p) => p.id), versionIds: versions.map((v) => v.id) };
}

/** Other people with their own projects: rows the big account's queries must skip. */
export async function seedOthers(db: Kysely<Database>): Promise<void> {
  const now = new Date().toISOString();
  const users: UsersTable[] = Array.from({ length: OTHERS }, (_, i) => ({
    id: randomUUID(),
    name: `Other ${i}`,
    email: `other-${i}-${randomUUID()}@bench.example.com`,
    email_verified: 1,
    image: null,
    created_at: now,
    updated_at: now,
  }));
  await db.insertInto('users').values(users).execute();
  for (const user of users)
    await seedAccount(
      db,
      user.id,
      { projects: OTHERS_PROJECTS, branchesPerProject: 1, versions: 40, links: 2, comments: 20 },
      'Other',
    );
}
