import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { endpoints, type ApiClient } from '@takes/contract';
import { SOURCES, mix, peakScale, sox, writeWav } from '../../server/bench/alignment-set';
import { seedUser } from './support/accounts';
import { apiAs, callExpecting } from './support/api';
import { expect, test } from './support/test';

// Comments that follow the music and what changed, as a member sees them: version 2 cuts the
// first 2 s of version 1's intro, version 3 rides one element of version 1 up 1.5 dB at
// 0:12–0:17. Real processing, real alignment jobs, the review view and the compare view.

/** The three takes as 16-bit WAVs, made from one of the evaluation set's musical sources. */
function takes(dir: string) {
  const stems = SOURCES[0].make();
  const scale = peakScale(mix(stems));
  const [first] = Object.keys(stems);
  const gains = first ? { [first]: (t: number) => (t >= 12 && t < 17 ? 10 ** (1.5 / 20) : 1) } : {};
  const files = {
    full: path.join(dir, 'full.wav'),
    ridden: path.join(dir, 'ridden.wav'),
    v1: path.join(dir, 'Song v1.wav'),
    v2: path.join(dir, 'Song v2.wav'),
    v3: path.join(dir, 'Song v3.wav'),
  };
  writeWav(files.full, mix(stems), scale);
  writeWav(files.ridden, mix(stems, gains), scale);
  sox(files.full, '-b', '16', files.v1, 'trim', '0', '30');
  sox(files.v1, files.v2, 'trim', '2');
  sox(files.ridden, '-b', '16', files.v3, 'trim', '0', '30');
  return files;
}

async function upload(
  api: ApiClient,
  file: string,
  target: { project_id: string; branch_id: string } | null,
) {
  const form = new FormData();
  form.append('audio_file', new Blob([new Uint8Array(fs.readFileSync(file))]), path.basename(file));
  if (target) {
    form.append('project_id', target.project_id);
    form.append('branch_id', target.branch_id);
    form.append('commit_message', path.basename(file, '.wav'));
  }
  const answer = await callExpecting(api, 201, endpoints.versions.uploadVersion, { form });
  await expect
    .poll(
      async () =>
        (
          await api.call(endpoints.versions.getVersionProcessing, {
            params: { versionId: answer.version_id },
          })
        ).status,
      { timeout: 60_000, intervals: [500] },
    )
    .toBe('completed');
  return answer;
}

async function aligned(api: ApiClient, a: string, b: string) {
  await expect
    .poll(
      async () =>
        (
          await api.call(endpoints.review.getVersionAlignment, {
            params: { versionId: a },
            query: { to: b },
          })
        ).status,
      { timeout: 60_000, intervals: [500] },
    )
    .toBe('ready');
}

async function signIn(page: Page, baseURL: string | undefined) {
  const api = apiAs(page, baseURL);
  const credentials = await seedUser(page.request, baseURL, 'follow');
  await callExpecting(api, 200, endpoints.auth.signInWithEmail, { body: credentials });
  return api;
}

test('a comment follows the music to the next version, and the compare view marks what changed', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-follow-'));
  try {
    const files = takes(dir);
    const api = await signIn(page, baseURL);
    const v1 = await upload(api, files.v1, null);
    const target = { project_id: v1.project_id, branch_id: v1.branch_id };
    await callExpecting(api, 201, endpoints.comments.addVersionComment, {
      params: { versionId: v1.version_id },
      body: { content: 'Snare too loud here', timestamp: 10 },
    });
    const v2 = await upload(api, files.v2, target);
    await aligned(api, v1.version_id, v2.version_id);

    // Version 2's review view: version 1's comment at its new time (about 0:08).
    await page.goto(
      `/projects/${target.project_id}/branches/${target.branch_id}/versions/${v2.version_id}`,
    );
    await expect(page.getByTestId('review-waveform-surface')).toHaveAttribute(
      'aria-disabled',
      'false',
    );
    await page.getByRole('checkbox', { name: 'Show comments from previous versions' }).check();
    const marker = page.getByRole('button', {
      name: /^Comment at 0:0[78] by .*, from Version 1 at 0:10: Snare too loud here$/,
    });
    await expect(marker).toBeVisible();
    await expect(marker).toHaveAttribute('data-carried', 'true');
    const item = page
      .getByRole('list', { name: 'Comments' })
      .getByRole('article')
      .filter({ hasText: 'Snare too loud here' });
    await expect(item.getByText('from Version 1 at 0:10')).toBeVisible();
    await expect(item.getByRole('button', { name: /^Play from 0:0[78]$/ })).toBeVisible();

    // Version 3 rides one element at 0:12–0:17: the compare view's 'Changes' lane shows it.
    const v3 = await upload(api, files.v3, target);
    await page.goto(`/projects/${target.project_id}/compare?a=${v3.version_id}&b=${v1.version_id}`);
    const lane = page.getByTestId('changes-lane');
    await expect(lane).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    const changes = lane.getByTestId('change');
    await expect(changes).toHaveCount(1);
    const start = Number(await changes.first().getAttribute('data-start'));
    expect(start).toBeGreaterThan(11.6);
    expect(start).toBeLessThan(12.4);
    await expect(changes.first()).toHaveAccessibleName(
      /^Changed 0:1[12]–0:1[67]: difference at -\d+\.\d dB$/,
    );
    const slotA = page.getByRole('group', { name: 'Slot A' });
    await expect(slotA).toHaveAttribute('data-loaded', 'true', { timeout: 20_000 });
    await expect(page.getByRole('group', { name: 'Slot B' })).toHaveAttribute(
      'data-loaded',
      'true',
      { timeout: 20_000 },
    );
    // n jumps to the change and plays from there.
    await page.getByRole('heading', { level: 1 }).click();
    await page.keyboard.press('n');
    const panel = page.getByTestId('compare-panel');
    await expect(panel).toHaveAttribute('data-playing', 'true');
    const position = async () =>
      Number(await page.getByTestId('compare-position').getAttribute('data-position-ms'));
    await expect.poll(position).toBeGreaterThan(start * 1000 - 100);
    expect(await position()).toBeLessThan(start * 1000 + 3000);
    await panel.getByRole('button', { name: 'Pause' }).click();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
