import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, newUser } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { buildProject, buildVersion } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { migrateToLatest } from '../../db/migrate';
import { migrations } from '../../db/migrations';
import { downsampled, parseJson, waveformJson, type WaveformInfo } from './audio-view';
import { FEED_WAVEFORM_POINTS, fewerPeaks, LIST_PEAKS } from './previews';

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
      projectId: string;
      branchId: string;
      versionId: string;
    }>();
    await t.deps.jobs.startWorking();
    await eventually(
      async () =>
        (await owner.get(`/api/versions/${up.versionId}/processing`)).json<{ status: string }>()
          .status === 'completed',
    );
    const row = await t.deps.database.db
      .selectFrom('versions')
      .select(['waveform', 'metadata'])
      .where('id', '=', up.versionId)
      .executeTakeFirstOrThrow();
    const full = parseJson<WaveformInfo | null>(row.waveform, null)!;
    expect(full.overview.length).toBeGreaterThan(LIST_PEAKS);

    const listed = (
      await owner.get(`/api/versions/project/${up.projectId}/branch/${up.branchId}`)
    ).json<{ id: string; waveform_data: { peaks: number[]; duration: number } }[]>();
    expect(listed[0]?.waveform_data).toEqual({
      peaks: fewerPeaks(full.overview, LIST_PEAKS),
      duration: full.duration,
    });
    const detail = (await owner.get(`/api/versions/${up.versionId}`)).json<{
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
    expect(feed.find((item) => item.id === up.versionId)?.waveform_json).toEqual(
      downsampled(waveformJson(full, duration)!, FEED_WAVEFORM_POINTS),
    );
  });

  it('migration 0020 previews the waveforms stored before it', async () => {
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
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
    });
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
  });
});
