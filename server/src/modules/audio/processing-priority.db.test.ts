import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeAudio } from '../../../test/audio-fixtures';
import {
  runJobs,
  setupStoredAudio,
  uploadVersion,
  type Client,
} from '../../../test/stored-audio-setup';
import type { TestApp } from '../../../test/test-app';
import { parseJson, type Renditions } from './audio-view';
import { LONGEST_SHARE_NICENESS, MEDIA_NICENESS } from './processing';
import { LOW_RATE_LAME_QUALITY } from '../../media/audio';

/**
 * Issue 18 §3: the three media steps run at once, below the server's own priority, with the
 * 320k encode (the largest share) weighted above the other two so that all three end together.
 * The renditions reach the store whole, with the hash of their bytes.
 */
describe('processing: priorities of the media steps', () => {
  let t: TestApp;
  let owner: Client;
  let dir: string;
  beforeAll(async () => {
    ({ t, owner } = await setupStoredAudio());
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-priority-'));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs the 320k encode ahead of the 128k encode and the meter, all below the server', async () => {
    expect(LONGEST_SHARE_NICENESS).toBeGreaterThan(0);
    expect(LONGEST_SHARE_NICENESS).toBeLessThan(MEDIA_NICENESS);
    const wav = await makeAudio(dir, 'wav', 4);
    const { version_id: versionId } = await uploadVersion(t, owner, wav);

    const calls: { args: readonly string[]; niceness: number | undefined }[] = [];
    const real = t.deps.media.ffmpeg.bind(t.deps.media);
    const spy = vi.spyOn(t.deps.media, 'ffmpeg').mockImplementation((args, options) => {
      calls.push({ args, niceness: options.niceness });
      return real(args, options);
    });
    try {
      await runJobs(t);
    } finally {
      spy.mockRestore();
    }

    const niceness = (matches: (args: readonly string[]) => boolean) =>
      calls.filter((c) => matches(c.args)).map((c) => c.niceness);
    const high = niceness((a) => a.includes('320k'));
    const standard = niceness((a) => a.includes('128k'));
    const meter = niceness((a) => a.some((arg) => arg.includes('ebur128')));
    expect(high).toHaveLength(1);
    expect(standard).toHaveLength(1);
    expect(meter).toHaveLength(1);
    // With one core the steps run in turn and there is nothing to balance.
    const parallel = os.availableParallelism() > 1;
    expect(high[0]).toBe(parallel ? LONGEST_SHARE_NICENESS : MEDIA_NICENESS);
    expect(standard[0]).toBe(MEDIA_NICENESS);
    expect(meter[0]).toBe(MEDIA_NICENESS);
    // LAME's quality: its default for the 320k, the quicker one for the 128k (issue 51).
    const lameQuality = (kbps: string) => {
      const args = calls.find((c) => c.args.includes(kbps))?.args ?? [];
      const at = args.indexOf('-compression_level');
      return at === -1 ? undefined : args[at + 1];
    };
    expect(lameQuality('320k')).toBeUndefined();
    expect(lameQuality('128k')).toBe(String(LOW_RATE_LAME_QUALITY));

    // Each rendition is stored whole, with the SHA-256 of what the store holds.
    const row = await t.deps.database.db
      .selectFrom('versions')
      .select(['status', 'renditions'])
      .where('id', '=', versionId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('completed');
    const renditions = parseJson<Renditions>(row.renditions, {});
    for (const quality of ['high', 'standard'] as const) {
      const stored = renditions[quality];
      if (!stored) throw new Error(`no ${quality} rendition`);
      const { body } = await t.deps.storage.get(stored.key);
      const bytes = Buffer.concat(await body.toArray());
      expect(bytes.length).toBe(stored.size);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(stored.sha256);
    }
  });
});
