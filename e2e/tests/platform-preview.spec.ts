/// <reference lib="dom" />
// The init script below records the page's Web Audio gain changes, so this file needs the DOM types.
import type { Page } from '@playwright/test';
import {
  dbToLinear,
  endpoints,
  type ApiClient,
  PLATFORMS,
  platformGain,
  platformGainSentence,
  type PlatformId,
} from '@takes/contract';
import { seedUser } from './support/accounts';
import { apiAs, callExpecting } from './support/api';
import { expectNoSeriousViolations } from './support/axe';
import { scaledWav } from './support/cli';
import { misfits, settled } from './support/fit';
import { expect, test } from './support/test';
import { toneWav } from './support/wav';
import { processedAll, uploadWavThrough } from './support/workspace';

declare global {
  interface Window {
    /** Every value the page's AudioParams were set towards (setTargetAtTime / linear ramps). */
    __gainTargets?: number[];
  }
}

/** Records the targets of gain changes, to check what the page really applies. */
async function recordGainTargets(page: Page) {
  await page.addInitScript(() => {
    const targets: number[] = [];
    window.__gainTargets = targets;
    for (const name of ['setTargetAtTime', 'linearRampToValueAtTime'] as const) {
      const original = Object.getOwnPropertyDescriptor(AudioParam.prototype, name)?.value as (
        this: AudioParam,
        value: number,
        ...rest: number[]
      ) => AudioParam;
      Object.defineProperty(AudioParam.prototype, name, {
        configurable: true,
        writable: true,
        value: function (this: AudioParam, value: number, ...rest: number[]) {
          targets.push(value);
          return original.call(this, value, ...rest);
        },
      });
    }
  });
}

/** Whether the page has set some gain to `linear` (within 0.1 %). */
function gainApplied(page: Page, linear: number): Promise<boolean> {
  return page.evaluate(
    (wanted) =>
      (window.__gainTargets ?? []).some((value) => Math.abs(value - wanted) < wanted * 1e-3),
    linear,
  );
}

/** As the page writes an applied gain in data attributes: '-6.0', '+2.0', '0.0'. */
function signedDb(db: number): string {
  const rounded = Math.round(db * 10) / 10;
  if (rounded === 0) return '0.0';
  return `${rounded > 0 ? '+' : '-'}${Math.abs(rounded).toFixed(1)}`;
}

/** The gain `platform` applies to a version, from the loudness processing measured. */
async function expectedGain(api: ApiClient, versionId: string, platform: PlatformId) {
  const version = await api.call(endpoints.versions.getVersion, { params: { versionId } });
  const gain = platformGain(platform, {
    integratedLufs: version.loudness?.integrated_lufs,
    truePeakDbfs: version.loudness?.true_peak_dbfs,
  });
  if (!gain) throw new Error(`version ${versionId} has no measured loudness`);
  return {
    gainDb: gain.gainDb,
    sentence: platformGainSentence(PLATFORMS[platform].label, gain.gainDb),
  };
}

async function fitsAt390(page: Page, screen: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await settled(page);
  expect(await misfits(page), screen).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("'Preview as' plays a version, and both sides of a compare, at the gain a platform would apply", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000);
  await recordGainTargets(page);
  const credentials = await seedUser(page.request, baseURL, 'platform-preview');
  const api = apiAs(page, baseURL);
  await callExpecting(api, 200, endpoints.auth.signInWithEmail, { body: credentials });

  // A loud master (a half-scale tone, about −9 LUFS) and a quiet one (a tenth of it, about −23).
  const tone = toneWav(12, 440, 22_050);
  const upload = (wav: Buffer, fields: Record<string, string>) =>
    uploadWavThrough(api, wav, fields);
  const loud = await upload(tone, { project_name: 'Preview me' });
  const quiet = await upload(scaledWav(tone, 0.1), {
    project_id: loud.project_id,
    branch_id: loud.branch_id,
    commit_message: 'Quiet master',
  });
  await processedAll(api, [loud.version_id, quiet.version_id]);

  const loudOnSpotify = await expectedGain(api, loud.version_id, 'spotify');
  const quietOnSpotify = await expectedGain(api, quiet.version_id, 'spotify');
  expect(loudOnSpotify.sentence).toMatch(/^Spotify will play this \d+\.\d dB quieter$/);
  expect(quietOnSpotify.sentence).toMatch(/^Spotify will play this \d+\.\d dB louder$/);

  // The version page: the loud master starts playing; Spotify turns it down.
  await page.goto(
    `/projects/${loud.project_id}/branches/${loud.branch_id}/versions/${loud.version_id}`,
  );
  await expect(page.getByRole('heading', { name: 'Version 1' })).toBeVisible();
  const preview = page.getByTestId('platform-preview');
  const choose = preview.getByRole('combobox', { name: 'Preview as' });
  await expect(choose).toHaveValue('');
  await choose.selectOption({ label: 'Spotify' });
  await expect(page.getByTestId('platform-preview-sentence')).toHaveText(loudOnSpotify.sentence);
  await expect(preview).toHaveAttribute('data-applied-gain-db', signedDb(loudOnSpotify.gainDb));
  await expect(preview).toHaveAttribute('data-gain-path', 'web-audio');
  await expect.poll(() => gainApplied(page, dbToLinear(loudOnSpotify.gainDb))).toBe(true);
  await fitsAt390(page, 'the version page with Spotify chosen');
  await expectNoSeriousViolations(page, 'the version page with a platform preview');

  // YouTube never turns the quiet master up.
  await page.goto(
    `/projects/${quiet.project_id}/branches/${quiet.branch_id}/versions/${quiet.version_id}`,
  );
  await expect(page.getByRole('heading', { name: 'Version 2' })).toBeVisible();
  await preview.getByRole('combobox', { name: 'Preview as' }).selectOption({ label: 'YouTube' });
  await expect(page.getByTestId('platform-preview-sentence')).toHaveText(
    'YouTube will play this at its own level',
  );
  await expect(preview).toHaveAttribute('data-applied-gain-db', '0.0');

  // The compare view: both sides as Spotify would play them, in place of Match loudness.
  await page.goto(
    `/projects/${loud.project_id}/compare?a=${loud.version_id}&b=${quiet.version_id}`,
  );
  await expect(
    page.getByRole('heading', { name: 'Compare Version 1 and Version 2' }),
  ).toBeVisible();
  const slotA = page.getByRole('group', { name: 'Slot A' });
  const slotB = page.getByRole('group', { name: 'Slot B' });
  await expect(slotA).toHaveAttribute('data-loaded', 'true', { timeout: 20_000 });
  await expect(slotB).toHaveAttribute('data-loaded', 'true', { timeout: 20_000 });
  const matchSwitch = page.getByRole('switch', { name: 'Match loudness' });
  await expect(matchSwitch).toBeChecked();

  const comparePreview = page.getByTestId('compare-platform-preview');
  await comparePreview.getByRole('combobox', { name: 'Preview as' }).selectOption('spotify');
  const sides = comparePreview.getByRole('listitem');
  await expect(sides).toHaveText([`A: ${loudOnSpotify.sentence}`, `B: ${quietOnSpotify.sentence}`]);
  await expect(comparePreview.locator('[data-side="A"]')).toHaveAttribute(
    'data-applied-gain-db',
    signedDb(loudOnSpotify.gainDb),
  );
  await expect(comparePreview.locator('[data-side="B"]')).toHaveAttribute(
    'data-applied-gain-db',
    signedDb(quietOnSpotify.gainDb),
  );
  await expect(matchSwitch).not.toBeChecked();

  // Playing A, then B: each side's gain node goes to that side's platform gain.
  const panel = page.getByTestId('compare-panel');
  await slotA.getByRole('button', { name: 'Play A' }).click();
  await expect(panel).toHaveAttribute('data-playing', 'true');
  await expect.poll(() => gainApplied(page, dbToLinear(loudOnSpotify.gainDb))).toBe(true);
  await slotB.getByRole('button', { name: 'Play B' }).click();
  await expect(panel).toHaveAttribute('data-active-side', 'B');
  await expect.poll(() => gainApplied(page, dbToLinear(quietOnSpotify.gainDb))).toBe(true);
  await panel.getByRole('button', { name: 'Pause' }).click();

  await fitsAt390(page, 'the compare view with Spotify chosen');
  await expectNoSeriousViolations(page, 'the compare view with a platform preview');

  // Match loudness on again: the preview shows 'Original level'.
  await matchSwitch.check();
  await expect(comparePreview.getByRole('combobox', { name: 'Preview as' })).toHaveValue('');
  await expect(sides).toHaveCount(0);
});
