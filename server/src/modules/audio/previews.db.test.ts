import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, newUser } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { buildProject, buildVersion } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { migrateToLatest, migratorOf } from '../../db/migrate';
import { parseJson, waveformJson, type WaveformInfo } from './audio-view';
import { FEED_WAVEFORM_POINTS, feedPairs, fewerPeaks, LIST_PEAKS } from './previews';

/**
 * Lists and the feed draw a version's stored preview, never its full waveform: the preview must
 * be exactly what the full waveform gives, written by processing and by migration 0020.
 */
describe('version previews', () => {
  let t: TestApp;
  let dir: string;
  let wav: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-previews-'));
    wav = await makeAudio(dir, 'wav', 20, 'Preview Take.wav');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await t?.close();
  });

  it('processing writes the preview the branch list and the feed show, equal to the full waveform cut down', async () => {
    t = await createTestApp();
    const owner = api(t, await newUser(t));
    const up = (await owner.upload({ path: wav }, {})).json<{
      project_id: string;
      branch_id: string;
      version_id: string;
    }>();
    await t.deps.jobs.startWorking();
    await eventually(
      async () =>
        (await owner.get(`/api/versions/${up.version_id}/processing`)).json<{ status: string }>()
          .status === 'completed',
    );
    const row = await t.deps.database.db
      .selectFrom('versions')
      .select(['waveform', 'metadata'])
      .where('id', '=', up.version_id)
      .executeTakeFirstOrThrow();
    const full = parseJson<WaveformInfo | null>(row.waveform, null)!;
    expect(full.overview.length).toBeGreaterThan(LIST_PEAKS);

    const listed = (
      await owner.get(`/api/versions/project/${up.project_id}/branch/${up.branch_id}`)
    ).json<{ id: string; waveform_data: { peaks: number[]; duration: number } }[]>();
    expect(listed[0]?.waveform_data).toEqual({
      peaks: fewerPeaks(full.overview, LIST_PEAKS),
      duration: full.duration,
    });
    const detail = (await owner.get(`/api/versions/${up.version_id}`)).json<{
      waveform_data: { peaks: number[] };
    }>();
    expect(detail.waveform_data.peaks).toEqual(full.overview);

    const { bounces: feed } = (await owner.get('/api/bounces/recent?limit=10&all=true')).json<{
      bounces: {
        id: string;
        duration: number;
        waveform_json: { min: number[]; max: number[]; duration: number };
      }[];
    }>();
    const duration = parseJson<{ duration: number }>(row.metadata, { duration: 0 }).duration;
    const card = feed.find((item) => item.id === up.version_id)?.waveform_json;
    expect(card).toEqual(feedPairs(waveformJson(full, duration)!));
    // 100 bars in hundredths of full scale, each the loudest of its stretch of the overview.
    expect(card?.max).toHaveLength(FEED_WAVEFORM_POINTS);
    expect(card?.min).toHaveLength(FEED_WAVEFORM_POINTS);
    expect(card?.max.every((v) => Math.round(v * 100) === v * 100)).toBe(true);
    expect(Math.max(...card!.max)).toBeCloseTo(Math.max(...full.overview), 2);
  });

  /** A test app with one processed version (stored as processing writes it), and its migrator. */
  async function processedVersionAndMigrator() {
    t = await createTestApp();
    const db = t.deps.database.db;
    await newUser(t);
    const ownerId = (await db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
    const { project, branch } = await buildProject(db, ownerId);
    const version = await buildVersion(
      { db, storage: t.deps.storage },
      { projectId: project.id, branchId: branch.id },
      { file: wav, processed: true },
    );
    return { db, version, migrator: await migratorOf(db) };
  }

  it('migration 0020 previews the waveforms stored before it', async () => {
    const { db, version, migrator } = await processedVersionAndMigrator();
    expect((await migrator.migrateTo('0019-search-names')).error).toBeUndefined();
    await migrateToLatest(db);
    const preview = await db
      .selectFrom('version_previews')
      .selectAll()
      .where('version_id', '=', version.id)
      .executeTakeFirstOrThrow();
    const full = parseJson<WaveformInfo | null>(version.waveform, null)!;
    expect(JSON.parse(preview.peaks)).toEqual(fewerPeaks(full.overview, LIST_PEAKS));
    expect(preview.duration).toBe(full.duration);
    const { min, max } = feedPairs(waveformJson(full, null)!);
    expect(JSON.parse(preview.pairs)).toEqual({ min, max });
  });

  it('migration 0022 draws the feed previews stored before it again, 100 pairs in hundredths', async () => {
    const { db, version, migrator } = await processedVersionAndMigrator();
    expect((await migrator.migrateTo('0021-resumable-uploads')).error).toBeUndefined();
    // What 0020 stored: 300 pairs at full precision.
    const old = { min: Array.from({ length: 300 }, (_, i) => -i / 301), max: [] as number[] };
    old.max = old.min.map((v) => -v);
    await db
      .updateTable('version_previews')
      .set({ pairs: JSON.stringify(old) })
      .where('version_id', '=', version.id)
      .execute();
    await migrateToLatest(db);
    const preview = await db
      .selectFrom('version_previews')
      .select('pairs')
      .where('version_id', '=', version.id)
      .executeTakeFirstOrThrow();
    const full = parseJson<WaveformInfo | null>(version.waveform, null)!;
    const pairs = JSON.parse(preview.pairs) as { min: number[]; max: number[] };
    // The factory's waveform has fewer points than a card draws: all of them, in hundredths.
    expect(pairs.max).toHaveLength(Math.min(FEED_WAVEFORM_POINTS, full.overview.length));
    expect(pairs).toEqual({
      min: feedPairs(waveformJson(full, null)!).min,
      max: feedPairs(waveformJson(full, null)!).max,
    });
  });
});
