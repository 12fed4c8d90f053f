/// <reference lib="dom" />
// The page-side callbacks below read the <audio> element, so this file needs the DOM types.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { endpoints } from '@takes/contract';
import { seedUser } from './support/accounts';
import { apiAs, callExpecting } from './support/api';
import { expect, test } from './support/test';
import { toneWav } from './support/wav';

interface Uploaded {
  versionId: string;
  projectId: string;
  branchId: string;
  projectName: string;
}

/** Signs the page's browser context in and uploads a new track through the API. */
async function seedTrack(page: Page, baseURL: string | undefined, label: string) {
  const credentials = await seedUser(page.request, baseURL, label);
  const api = apiAs(page, baseURL);
  await callExpecting(api, 200, endpoints.auth.signInWithEmail, { body: credentials });

  const form = new FormData();
  const wav = new Uint8Array(toneWav(10, 440, 22_050));
  form.append('audio_file', new Blob([wav], { type: 'audio/wav' }), 'sine-take.wav');
  const {
    version_id: versionId,
    project_id: projectId,
    branch_id: branchId,
  } = await callExpecting(api, 201, endpoints.versions.uploadVersion, { form });

  await expect
    .poll(
      async () => {
        const processing = await api.call(endpoints.versions.getVersionProcessing, {
          params: { versionId },
        });
        return processing.status;
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe('completed');
  // The WAV's FLAC ('Lossless') is made just after 'completed'.
  await expect
    .poll(
      async () =>
        (await api.call(endpoints.versions.getVersionQualities, { params: { versionId } }))
          .available,
      { timeout: 30_000, intervals: [200] },
    )
    .toContain('lossless');

  const { project } = await api.call(endpoints.versions.getVersion, { params: { versionId } });
  return { versionId, projectId, branchId, projectName: project.name } satisfies Uploaded;
}

function audioState(page: Page) {
  return page.evaluate(() => {
    const audio = document.querySelector('audio');
    if (!audio) throw new Error('no audio element');
    return {
      currentTime: audio.currentTime,
      duration: audio.duration,
      paused: audio.paused,
      src: audio.currentSrc,
      readyState: audio.readyState,
    };
  });
}

/**
 * Picks a quality in the player and answers the playback position just before the change and
 * where the new source resumed (its first 'seeked').
 */
async function switchQuality(page: Page, target: string) {
  await page.evaluate((wanted) => {
    const audio = document.querySelector('audio');
    const select = document.querySelector('select[aria-label="Quality"]');
    if (!audio || !select) throw new Error('player missing');
    const record = window as unknown as { qualitySwitch?: { before?: number; after?: number } };
    record.qualitySwitch = {};
    select.addEventListener(
      'change',
      () => {
        record.qualitySwitch = { before: audio.currentTime };
      },
      { once: true },
    );
    const onSeeked = () => {
      if (audio.currentSrc.includes(`quality=${wanted}`) && record.qualitySwitch) {
        record.qualitySwitch.after ??= audio.currentTime;
        audio.removeEventListener('seeked', onSeeked);
      }
    };
    audio.addEventListener('seeked', onSeeked);
  }, target);
  await page.getByRole('combobox', { name: 'Quality' }).selectOption(target);
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          (window as unknown as { qualitySwitch?: { before?: number; after?: number } })
            .qualitySwitch?.after,
      ),
    )
    .toBeGreaterThan(0);
  return page.evaluate(
    () => (window as unknown as { qualitySwitch: { before: number; after: number } }).qualitySwitch,
  );
}

test('the version page plays in the global player: time, quality, skip, seek and download', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const track = await seedTrack(page, baseURL, 'player');
  await page.goto(
    `/projects/${track.projectId}/branches/${track.branchId}/versions/${track.versionId}`,
  );
  await expect(page.getByRole('heading', { name: 'Version 1' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Comments' })).toBeVisible();
  await expect(page.getByText('No comments yet.')).toBeVisible();

  const player = page.getByRole('region', { name: 'Audio player' });
  // Auto-play starts about 300 ms after load; the time label moves past the start.
  await expect(player.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(player.getByTestId('player-current-time')).not.toHaveText(/^(0:00|--:--)$/, {
    timeout: 10_000,
  });
  await expect(player.getByTestId('player-duration')).toHaveText('0:10');
  await expect.poll(async () => (await audioState(page)).src).toContain('quality=high');

  // Quality: options wait for /qualities; a change keeps the playback position (within 1 s).
  const quality = player.getByRole('combobox', { name: 'Quality' });
  await expect(quality.locator('option[value="standard"]')).toBeEnabled();
  // 'Lossless (FLAC)' takes Original's place for the WAV (its FLAC, decoded by the browser).
  await expect(quality.locator('option[value="lossless"]')).toBeEnabled();
  await expect(quality.locator('option[value="original"]')).toHaveCount(0);
  for (const target of ['standard', 'lossless'] as const) {
    const positions = await switchQuality(page, target);
    expect(positions.before).toBeGreaterThan(0);
    expect(Math.abs(positions.after - positions.before)).toBeLessThan(1);
    await expect.poll(async () => (await audioState(page)).src).toContain(`quality=${target}`);
  }
  await expect(player.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect
    .poll(async () => (await audioState(page)).currentTime, { timeout: 10_000 })
    .toBeGreaterThan((await audioState(page)).currentTime);
  await quality.selectOption('standard');
  await expect.poll(async () => (await audioState(page)).src).toContain('quality=standard');

  // Pause so the positions below do not drift while they are checked.
  await player.getByRole('button', { name: 'Pause' }).click();
  await expect(player.getByRole('button', { name: 'Play' })).toBeVisible();
  await expect.poll(async () => (await audioState(page)).paused).toBe(true);

  // A click on the waveform seeks.
  const waveform = player.getByTestId('player-waveform');
  const box = await waveform.boundingBox();
  if (!box) throw new Error('waveform not laid out');
  await waveform.click({ position: { x: box.width * 0.5, y: box.height / 2 } });
  await expect.poll(async () => (await audioState(page)).currentTime).toBeGreaterThan(4.5);
  expect((await audioState(page)).currentTime).toBeLessThan(5.5);

  // Skip forward and back 10 s, clamped to the track (10 s long).
  await player.getByRole('button', { name: 'Skip forward 10 seconds' }).click();
  await expect.poll(async () => (await audioState(page)).currentTime).toBeGreaterThan(9.9);
  await player.getByRole('button', { name: 'Skip back 10 seconds' }).click();
  await expect.poll(async () => (await audioState(page)).currentTime).toBeLessThan(0.1);
  await waveform.click({ position: { x: box.width * 0.25, y: box.height / 2 } });
  await expect.poll(async () => (await audioState(page)).currentTime).toBeGreaterThan(2);
  await player.getByRole('button', { name: 'Skip back 10 seconds' }).click();
  await expect.poll(async () => (await audioState(page)).currentTime).toBe(0);
  await expect(player.getByTestId('player-current-time')).toHaveText('0:00');

  // Keyboard shortcuts, with focus outside any field: arrows seek 10 s, Space plays and pauses.
  await page.getByRole('heading', { name: 'Version 1' }).click();
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await audioState(page)).currentTime).toBeGreaterThan(9.9);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await audioState(page)).currentTime).toBeLessThan(0.1);
  await page.keyboard.press(' ');
  await expect(player.getByRole('button', { name: 'Pause' })).toBeVisible();
  await page.keyboard.press(' ');
  await expect(player.getByRole('button', { name: 'Play' })).toBeVisible();

  // The loop button really loops the media element.
  const loop = player.getByRole('button', { name: 'Loop' });
  await loop.click();
  await expect(loop).toHaveAttribute('aria-pressed', 'true');
  expect(await page.locator('audio').evaluate((audio: HTMLAudioElement) => audio.loop)).toBe(true);

  // The operating system's media controls know the track.
  expect(await page.evaluate(() => navigator.mediaSession.metadata?.album)).toBe(track.projectName);

  // The player's own download and share controls.
  await expect(player.getByRole('link', { name: 'Download track' })).toHaveAttribute(
    'href',
    `/api/versions/${track.versionId}/download`,
  );
  // The player's share button opens Quick Share for the version playing.
  await player.getByRole('button', { name: 'Share track' }).click();
  const quickShare = page.getByRole('dialog', { name: 'Quick Share' });
  await expect(quickShare.getByText('Create a link to share this version')).toBeVisible();
  await quickShare.getByRole('button', { name: 'Cancel' }).click();
  await expect(quickShare).toHaveCount(0);

  // The Download link names the file '{project}-{first 8 of id}.wav'.
  const download = page.waitForEvent('download');
  await page.getByRole('main').getByRole('link', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe(
    `${track.projectName}-${track.versionId.slice(0, 8)}.wav`,
  );
});

test('the version page with the player loaded has no serious accessibility violations', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const track = await seedTrack(page, baseURL, 'player-axe');
  for (const theme of ['light', 'dark']) {
    await page.goto('/');
    await page.evaluate((chosen) => localStorage.setItem('takes-theme', chosen), theme);
    await page.goto(
      `/projects/${track.projectId}/branches/${track.branchId}/versions/${track.versionId}`,
    );
    const player = page.getByRole('region', { name: 'Audio player' });
    await expect(player.getByTestId('player-title')).toBeVisible();
    await expect(player.getByRole('combobox', { name: 'Quality' })).toBeVisible();
    await expect(player.getByTestId('player-duration')).toHaveText('0:10');

    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter(
      (violation) => violation.impact === 'serious' || violation.impact === 'critical',
    );
    expect(serious.map((violation) => `${theme} ${violation.id}: ${violation.help}`)).toEqual([]);
  }
});

test('the player is idle until a track plays', async ({ page, baseURL }) => {
  const credentials = await seedUser(page.request, baseURL, 'player-idle');
  const signIn = await apiAs(page, baseURL).fetch(endpoints.auth.signInWithEmail, {
    body: credentials,
  });
  expect(signIn.status).toBe(200);
  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Audio player' })).toHaveText(
    'No track currently playing',
  );
});

test('the version page deletes after confirming and shows "Version not found" afterwards', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const track = await seedTrack(page, baseURL, 'player-delete');
  const versionPath = `/projects/${track.projectId}/branches/${track.branchId}/versions/${track.versionId}`;
  await page.goto(versionPath);
  await expect(page.getByRole('heading', { name: 'Version 1' })).toBeVisible();

  await page.getByRole('main').getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete version' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('main').getByRole('button', { name: 'Delete' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(`/projects/${track.projectId}`);
  const params = { versionId: track.versionId };
  expect((await apiAs(page, baseURL).fetch(endpoints.versions.getVersion, { params })).status).toBe(
    404,
  );

  await page.goto(versionPath);
  await expect(page.getByRole('alert')).toHaveText('Version not found');
});
