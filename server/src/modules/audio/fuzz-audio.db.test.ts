import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishResponse } from '@takes/contract';
import { api, eventually } from '../../../test/api';
import { makeAudio } from '../../../test/audio-fixtures';
import { buildRepo, buildUser } from '../../../test/factories';
import { expectSafeAnswer, fuzzParameters, withinTime } from '../../../test/fuzz';
import { flacFile, lameCbr, soxAiff } from '../../../test/intake-fixtures';
import { putUpload } from '../../../test/repos-setup';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { FAILED_MESSAGE, TIMEOUT_MESSAGE } from './processing';
import { wavLies, mutatedAudio } from '../../../test/audio-mutations';

/**
 * A mutated audio corpus through upload (POST /api/versions/upload) and bounce publish (publish,
 * PUT, complete): small real files from ffmpeg, sox, flac and lame, then bit flips, truncation,
 * wrong headers and WAV chunk sizes that lie. Every answer is a 4xx `{error}` or a success; a
 * file that was taken ends `completed`, or `failed` with the user's message, within the media
 * time limit (short here); none stays 'processing'.
 */

const MEDIA_TIMEOUT_SECONDS = 15;
/** Beyond the limit: the job's pick-up and its row updates, on a busy machine. */
const SETTLE_WITHIN_MS = (MEDIA_TIMEOUT_SECONDS + 15) * 1000;

type Client = ReturnType<typeof api>;

describe('a mutated audio corpus through upload and bounce publish', () => {
  let t: TestApp;
  let dir: string;
  let owner: Client;
  let repoId: string;
  const corpus: { name: string; content: Buffer }[] = [];
  const outcomes = { refused: 0, completed: 0, failed: 0 };

  beforeAll(async () => {
    t = await createTestApp({ env: { MEDIA_TIMEOUT_SECONDS: String(MEDIA_TIMEOUT_SECONDS) } });
    await t.deps.jobs.startWorking();
    const user = await buildUser(t.deps.database.db);
    owner = api(t, user.cookie);
    repoId = (await buildRepo(t.deps.database.db, user.id)).id;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-fuzz-audio-'));
    for (const file of [
      await makeAudio(dir, 'wav', 1, 'ffmpeg-24bit.wav'),
      await soxAiff(dir, 'sox-16bit.aiff', 16, 1),
      await flacFile(dir, 'reference.flac', 1),
      await lameCbr(dir, 'lame-cbr.mp3', 1),
    ])
      corpus.push({ name: path.basename(file), content: fs.readFileSync(file) });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The row's final state, waited for: never 'processing' past the time limit. */
  async function settled(table: 'versions' | 'bounces', id: string) {
    let row: { status: string; error: string | null } | undefined;
    await eventually(async () => {
      row = await t.deps.database.db
        .selectFrom(table)
        .select(['status', 'error'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row !== undefined && row.status !== 'processing';
    }, SETTLE_WITHIN_MS);
    return row as { status: string; error: string | null };
  }

  function expectFinal(row: { status: string; error: string | null }, what: string) {
    if (row.status === 'completed') {
      expect(row.error, what).toBeNull();
      outcomes.completed += 1;
    } else {
      expect(row.status, what).toBe('failed');
      expect([FAILED_MESSAGE, TIMEOUT_MESSAGE], what).toContain(row.error);
      outcomes.failed += 1;
    }
  }

  async function upload(name: string, content: Buffer) {
    const response = await withinTime(owner.upload({ content, name }, {}), 30_000, name);
    expectSafeAnswer(response, `upload ${name}`);
    if (response.statusCode >= 400) {
      outcomes.refused += 1;
      return;
    }
    const { version_id: versionId } = response.json<{ version_id: string }>();
    expectFinal(await settled('versions', versionId), `version of ${name}`);
  }

  async function publish(name: string, content: Buffer) {
    const started = await owner.post('/api/bounces/publish', {
      repo_id: repoId,
      branch: 'main',
      filename: name,
      content_type: 'application/octet-stream',
    });
    expect(started.statusCode, started.body).toBe(201);
    const {
      upload_url: uploadUrl,
      upload_token: uploadToken,
      upload_id: uploadId,
    } = started.json<PublishResponse>();
    const put = await withinTime(putUpload(t, uploadUrl, content, uploadToken), 30_000, name);
    expectSafeAnswer(put, `PUT ${name}`);
    if (put.statusCode >= 400) {
      outcomes.refused += 1;
      return;
    }
    const completed = await withinTime(
      owner.post('/api/bounces/complete', {
        repo_id: repoId,
        branch: 'main',
        filename: name,
        mime: 'application/octet-stream',
        size: content.length,
        upload_id: uploadId,
      }),
      30_000,
      name,
    );
    expectSafeAnswer(completed, `complete ${name}`);
    if (completed.statusCode >= 400) {
      outcomes.refused += 1;
      return;
    }
    const { bounce } = completed.json<{ bounce: { id: string } }>();
    expectFinal(await settled('bounces', bounce.id), `bounce of ${name}`);
  }

  it('takes WAV files whose chunk sizes lie, or refuses them, through upload and publish', async () => {
    const wav = corpus[0] as { name: string; content: Buffer };
    for (const [index, lie] of wavLies(wav.content).entries()) {
      const name = `lie-${lie.name.replaceAll(' ', '-')}.wav`;
      // Each lie through one path, the two paths taking turns.
      await (index % 2 === 0 ? upload(name, lie.content) : publish(name, lie.content));
    }
  }, 180_000);

  it('takes files of every encoder cut short at many points, or refuses them', async () => {
    for (const original of corpus) {
      const size = original.content.length;
      const cuts = [4, 44, Math.floor(size / 3), Math.floor((2 * size) / 3), size - 1];
      for (const [index, at] of cuts.entries()) {
        const name = `cut-at-${at}-${original.name}`;
        const content = original.content.subarray(0, at);
        await (index % 2 === 0 ? upload(name, content) : publish(name, content));
      }
    }
  }, 180_000);

  it('takes randomly mutated files of every encoder, or refuses them, through upload and publish', async () => {
    for (const [index, original] of corpus.entries())
      await fc.assert(
        fc.asyncProperty(
          mutatedAudio(original.content),
          fc.boolean(),
          async (mutated, viaPublish) => {
            const name = `${mutated.name}-${original.name}`;
            await (viaPublish ? publish(name, mutated.content) : upload(name, mutated.content));
          },
        ),
        fuzzParameters(index === 0 ? 4 : 3),
      );
    // Some were refused at the door, some processed, some failed with the message: the corpus
    // reaches every outcome (counted over both tests).
    expect(outcomes.completed, JSON.stringify(outcomes)).toBeGreaterThan(0);
    expect(outcomes.failed + outcomes.refused, JSON.stringify(outcomes)).toBeGreaterThan(0);
  }, 240_000);
});
