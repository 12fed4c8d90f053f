/// <reference lib="dom" />
// The page-side callbacks below read the compare panel's DOM, so this file needs the DOM types.
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { endpoints } from '@takes/contract';
import { seedUser } from './support/accounts';
import { apiAs, callExpecting } from './support/api';
import { scaledWav, takesCli } from './support/cli';
import { expect, test } from './support/test';
import { toneWav } from './support/wav';
import {
  readingsCount,
  readingsSpan,
  startRecording,
  takeReadings,
} from './support/compare-readings';

/** Both bounces: a 12 s tone; the second 6 dB quieter, so loudness matching has work to do. */
const BOUNCE_SECONDS = 12;

/**
 * Publishes two bounces of the same title onto `main` with the `takes` CLI, signed in the way
 * the desktop app is: the signed-in browser approves the sign-in and the CLI trades the
 * one-time code for its tokens. Returns the repository id.
 */
async function publishTwoBouncesWithCli(
  page: Page,
  baseURL: string,
  workDir: string,
): Promise<string> {
  const api = apiAs(page, baseURL);
  const { code } = await callExpecting(api, 200, endpoints.desktop.approveDesktopSignIn);

  const cli = await takesCli(baseURL);
  try {
    // --code=… so that a code starting with '-' is not read as an option.
    await cli.run('login', `--code=${code}`);
    const repoName = `Compare ${randomUUID().slice(0, 8)}`;
    // `Created repository NAME (ID)`
    const created = await cli.run('repo', 'create', repoName);
    const repoId = /\(([^()\s]+)\)\s*$/.exec(created)?.[1];
    if (!repoId) throw new Error(`no repository id in: ${created}`);

    const tone = toneWav(BOUNCE_SECONDS, 440, 22_050);
    await mkdir(workDir, { recursive: true });
    const louder = join(workDir, 'mix-loud.wav');
    const quieter = join(workDir, 'mix-quiet.wav');
    await writeFile(louder, tone);
    await writeFile(quieter, scaledWav(tone, 0.5));
    await cli.run(
      'commit',
      '--repo',
      repoName,
      '--branch',
      'main',
      '-m',
      'First mix',
      '--bounce',
      louder,
      '--title',
      'Mix',
    );
    await cli.run(
      'commit',
      '--repo',
      repoName,
      '--branch',
      'main',
      '-m',
      'Quieter mix',
      '--bounce',
      quieter,
      '--title',
      'Mix',
    );

    return repoId;
  } finally {
    await cli.dispose();
  }
}

test('A/B compare: after the CLI publishes two bounces of one title, Space switches sides gaplessly, the loop region holds, /bounces groups them', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  if (!baseURL) throw new Error('baseURL must be set in playwright.config.ts');
  const api = apiAs(page, baseURL);
  const credentials = await seedUser(page.request, baseURL, 'compare');
  await callExpecting(api, 200, endpoints.auth.signInWithEmail, { body: credentials });
  const repoId = await publishTwoBouncesWithCli(page, baseURL, test.info().outputPath('bounces'));

  // Both bounces are processed (loudness measured) before the page compares them.
  await expect
    .poll(
      async () => {
        const response = await api.fetch(endpoints.repos.listRepoBounces, {
          params: { id: repoId },
          query: { branch: 'main' },
        });
        if (!response.ok) return `HTTP ${response.status}: ${await response.text()}`;
        const { bounces } = (await response.json()) as { bounces: { status: string }[] };
        return bounces.map((bounce) => bounce.status).join(',');
      },
      { timeout: 90_000, intervals: [1000] },
    )
    .toBe('completed,completed');

  await page.goto(`/repositories/${repoId}/branch/main`);
  await expect(page.getByRole('heading', { name: 'Branch: main' })).toBeVisible();
  await expect(page.getByText('Latest bounce pinned with history below.')).toBeVisible();

  const panel = page.getByTestId('compare-panel');
  const toggle = page.getByRole('button', { name: 'Toggle A/B (Space)' });
  await expect(panel.getByText('Select a bounce as A')).toBeVisible();
  await expect(toggle).toBeDisabled();

  // The older (louder) bounce is A, the latest (6 dB quieter) is B.
  const history = page.getByRole('region', { name: 'History' });
  const latest = page.getByRole('region', { name: 'Latest' });
  await history.getByRole('button', { name: 'Set A' }).click();
  await latest.getByRole('button', { name: 'Set B' }).click();
  await expect(toggle).toBeEnabled();
  const slotA = page.getByRole('group', { name: 'Slot A' });
  const slotB = page.getByRole('group', { name: 'Slot B' });
  await expect(slotA).toHaveAttribute('data-loaded', 'true', { timeout: 20_000 });
  await expect(slotB).toHaveAttribute('data-loaded', 'true', { timeout: 20_000 });
  await expect(page.getByTestId('loudness-summary')).toHaveText(
    /^A is (5\.\d|6\.\d) LU louder than B — matched$/,
  );

  // Play A, then switch with Space once it is well under way.
  await slotA.getByRole('button', { name: 'Play A' }).click();
  await expect(panel).toHaveAttribute('data-playing', 'true');
  await expect(panel).toHaveAttribute('data-active-side', 'A');
  const readout = page.getByTestId('compare-position');
  await expect
    .poll(async () => Number(await readout.getAttribute('data-position-ms')))
    .toBeGreaterThan(1500);

  // Space from the page itself (focus off the buttons, which use Space themselves).
  await page.getByRole('heading', { name: 'Branch: main' }).click();
  await startRecording(page);
  await expect.poll(() => readingsCount(page)).toBeGreaterThan(5);
  await page.keyboard.press('Space');
  await expect(panel).toHaveAttribute('data-active-side', 'B');
  await expect(panel).toHaveAttribute('data-playing', 'true');
  await expect.poll(() => readingsCount(page)).toBeGreaterThan(20);
  const readings = await takeReadings(page);
  const switchIndex = readings.findIndex((reading) => reading.side === 'B');
  expect(switchIndex).toBeGreaterThan(0);
  const before = readings[switchIndex - 1];
  const after = readings[switchIndex];
  if (!before || !after) throw new Error('no readings around the switch');
  expect(before.side).toBe('A');
  // The position moved on by the time that passed, give or take 50 ms: no restart, no gap.
  const drift = after.positionMs - before.positionMs - (after.at - before.at);
  expect(Math.abs(drift), JSON.stringify({ before, after })).toBeLessThan(50);
  // And it keeps running with the clock on side B.
  const last = readings[readings.length - 1];
  if (!last) throw new Error('no readings after the switch');
  expect(
    Math.abs(last.positionMs - after.positionMs - (last.at - after.at)),
    JSON.stringify({ after, last }),
  ).toBeLessThan(50);

  // Loop on, region 1–2 s: playback jumps into the region and stays there, wrapping around.
  await page.getByRole('checkbox', { name: 'Loop' }).check();
  await page.getByRole('spinbutton', { name: 'Start (s)' }).fill('1');
  await page.getByRole('spinbutton', { name: 'End (s)' }).fill('2');
  await expect
    .poll(async () => Number(await readout.getAttribute('data-position-ms')))
    .toBeLessThanOrEqual(2000);
  await takeReadings(page);
  // About three seconds of frames: three passes through the region.
  await expect
    .poll(() => readingsSpan(page), { timeout: 10_000, intervals: [250] })
    .toBeGreaterThan(3000);
  const looped = await takeReadings(page);
  expect(looped.length).toBeGreaterThan(30);
  for (const reading of looped) {
    expect(reading.positionMs).toBeGreaterThanOrEqual(1000);
    expect(reading.positionMs).toBeLessThanOrEqual(2000);
  }
  const wraps = looped.filter(
    (reading, i) => i > 0 && reading.positionMs < (looped[i - 1]?.positionMs ?? 0),
  ).length;
  expect(wraps).toBeGreaterThanOrEqual(2);
  await expect(panel).toHaveAttribute('data-playing', 'true');

  await panel.getByRole('button', { name: 'Pause' }).click();
  await expect(panel).toHaveAttribute('data-playing', 'false');

  // The recent feed groups the two bounces (same repository, same title) on one card.
  await page.goto('/bounces');
  await expect(page.getByRole('heading', { name: 'Bounces' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'View versions' })).toHaveCount(1);
  await page.getByRole('button', { name: 'View versions' }).click();
  await expect(page.getByRole('button', { name: 'Hide versions' })).toBeVisible();
});
