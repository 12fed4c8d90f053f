import type { Browser, Page } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { readingsCount, startRecording, takeReadings } from './support/compare-readings';
import { misfits, settled } from './support/fit';
import { seedOwnerTrack } from './support/sharing';
import { expect, test } from './support/test';
import { uploadVersion } from './support/workspace';

// Blind tests as their people meet them: the owner makes a 3-version preference test and a
// 2-version ABX from the version page and the compare view; two listeners on phones hear the
// options by letter only and vote; the owner reads the counts and the p-value and marks the
// winner Approved, which the version's row then shows.

/** Makes a blind test in the open 'Blind test…' dialog; answers its link and results page. */
async function makeTest(
  page: Page,
  choices: { tick?: RegExp[]; mode: 'Preference' | 'ABX'; trials?: string; name: string },
) {
  const dialog = page.getByRole('dialog', { name: 'Blind test…' });
  for (const label of choices.tick ?? [])
    await dialog.getByRole('checkbox', { name: label }).check();
  await dialog.getByRole('combobox', { name: 'Mode' }).selectOption({ label: choices.mode });
  if (choices.trials) await dialog.getByRole('spinbutton', { name: /Trials/ }).fill(choices.trials);
  await dialog.getByRole('textbox', { name: 'Name' }).fill(choices.name);
  await dialog.getByRole('button', { name: 'Make blind test' }).click();
  const url = await dialog.getByRole('textbox', { name: 'Link' }).inputValue();
  const results = await dialog.getByRole('link', { name: 'See results' }).getAttribute('href');
  await dialog.getByRole('button', { name: 'Done' }).click();
  return { url, results: results ?? '' };
}

/** A listener on a phone (390 px), at their own address. */
async function phone(browser: Browser, address: string) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    extraHTTPHeaders: { 'x-forwarded-for': address },
  });
  return { context, page: await context.newPage() };
}

async function fitsAndPasses(page: Page, screen: string) {
  await settled(page);
  expect(await misfits(page), screen).toEqual([]);
  await expectNoSeriousViolations(page, screen);
}

/** The preference part's transport: its engine position readout and the letter heard. */
const BLIND_READINGS = {
  readout: '[role="group"][aria-label="Options"] [data-testid="blind-position"]',
  panel: '[role="group"][aria-label="Options"]',
  side: 'activeLetter',
};

/** The position slider's value (seconds). */
const position = async (page: Page) =>
  Number(await page.getByRole('slider', { name: 'Position' }).first().inputValue());

test('blind tests: made by the owner, taken on phones, rolled up into the review', async ({
  page,
  baseURL,
  browser,
}) => {
  test.setTimeout(240_000);
  const owner = await seedOwnerTrack(page, baseURL, 'blind-owner', 12);
  const target = { projectId: owner.projectId, branchId: owner.branchId };
  const v2 = await uploadVersion(page, baseURL, { ...target, message: 'Brighter', seconds: 12 });
  const v3 = await uploadVersion(page, baseURL, { ...target, message: 'Wider', seconds: 12 });
  const versionPath = (id: string) =>
    `/projects/${owner.projectId}/branches/${owner.branchId}/versions/${id}`;

  // A 3-version preference test from version 3's page.
  await page.goto(versionPath(v3.versionId));
  await page.getByRole('button', { name: 'Blind test…' }).click();
  const preference = await makeTest(page, {
    tick: [/^Version 1 · main/, /^Version 2 · main/],
    mode: 'Preference',
    name: 'Which mix',
  });
  // A 2-version ABX from the compare view of versions 2 and 1.
  await page.goto(`/projects/${owner.projectId}/compare?a=${v2.versionId}&b=${owner.versionId}`);
  await page.getByRole('button', { name: 'Blind test…' }).click();
  const abx = await makeTest(page, { mode: 'ABX', trials: '5', name: 'Can you hear it' });

  // Two listeners vote on their phones; letters are theirs alone, switching keeps the position.
  const votedFor: string[] = [];
  for (const [index, name] of ['Ana', 'Ben'].entries()) {
    const listener = await phone(browser, `10.44.0.${index + 1}`);
    try {
      const p = listener.page;
      await p.goto(preference.url);
      const options = p.getByRole('group', { name: 'Options' });
      await expect(options.getByRole('button', { name: 'Play X' })).toBeVisible({
        timeout: 60_000,
      });
      await expect(p.getByText('Levels matched')).toBeVisible();
      await expect(p.locator('body')).not.toContainText('Version');
      await fitsAndPasses(p, `blind test for ${name}`);
      await options.getByRole('button', { name: 'Play X' }).click();
      await expect(options.getByRole('button', { name: 'Pause' })).toBeVisible();
      await expect.poll(() => position(p), { timeout: 10_000 }).toBeGreaterThan(1);
      // Switching letters keeps the position: across the switch the engine's position moves on
      // by the time that passed, within 50 ms (no restart, no gap).
      await startRecording(p, BLIND_READINGS);
      await expect.poll(() => readingsCount(p)).toBeGreaterThan(5);
      await options.getByRole('button', { name: 'Play Y' }).click();
      await expect(options).toHaveAttribute('data-active-letter', 'Y');
      await expect.poll(() => readingsCount(p)).toBeGreaterThan(20);
      const readings = await takeReadings(p);
      const switchIndex = readings.findIndex((reading) => reading.side === 'Y');
      const [before, after] = [readings[switchIndex - 1], readings[switchIndex]];
      if (switchIndex < 1 || !before || !after) throw new Error('no readings around the switch');
      expect(before.side).toBe('X');
      const drift = after.positionMs - before.positionMs - (after.at - before.at);
      expect(Math.abs(drift), JSON.stringify({ before, after })).toBeLessThan(50);
      await expect(options.getByRole('button', { name: 'Play Y' })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      await options.getByRole('button', { name: 'Pause' }).click();
      await p.getByRole('textbox', { name: 'Your name' }).fill(name);
      await p.getByRole('radio', { name: 'Y' }).check();
      await p.getByRole('button', { name: 'Vote' }).click();
      await expect(p.getByText(`Thanks, ${name}: your vote for Y is in.`)).toBeVisible();
      // 'Reveal after voting': which version each letter was.
      const revealed = p.getByRole('region', { name: 'Which was which' });
      const y = (await revealed.getByText(/^Y was /).innerText()).replace(/^Y was /, '');
      if (index === 1 && y !== votedFor[0]) {
        // The second listener changes their vote to the first one's version (their letters differ).
        const letter = (
          await revealed.getByText(new RegExp(` was ${votedFor[0]}$`)).innerText()
        )[0];
        await p.getByRole('button', { name: 'Change vote' }).click();
        await p.getByRole('radio', { name: letter }).check();
        await p.getByRole('button', { name: 'Vote' }).click();
        await expect(p.getByText(`Thanks, ${name}: your vote for ${letter} is in.`)).toBeVisible();
        votedFor.push(votedFor[0] ?? '');
      } else votedFor.push(y);
      await fitsAndPasses(p, `blind test for ${name}, voted`);
    } finally {
      await listener.context.close();
    }
  }

  // The ABX on a phone: five trials, answered; the verdict at the end.
  const listener = await phone(browser, '10.44.0.9');
  try {
    const p = listener.page;
    await p.goto(abx.url);
    await p.getByRole('textbox', { name: 'Your name' }).fill('Cleo');
    await p.getByRole('button', { name: 'Start trial 1 of 5' }).click({ timeout: 60_000 });
    for (let trial = 1; trial <= 5; trial++) {
      await expect(p.getByRole('button', { name: 'X is A' })).toBeVisible();
      await p.getByRole('button', { name: 'X is A' }).click();
      if (trial < 5) await p.getByRole('button', { name: 'Next trial' }).click();
    }
    await expect(p.getByText(/^\d of 5 correct, p = /)).toBeVisible();
    await fitsAndPasses(p, 'ABX for Cleo, finished');
  } finally {
    await listener.context.close();
  }

  // The owner reads the results, marks the winner Approved, and sees it on the version's row.
  await page.goto(abx.results);
  await expect(page.getByRole('cell', { name: 'Cleo' })).toBeVisible();
  await expect(page.getByText(/^All listeners: \d of 5 correct, p = \d\.\d{3}: /)).toBeVisible();
  await page.goto(preference.results);
  const winner = votedFor[0] ?? '';
  await expect(page.getByText(`${winner}: 2 votes`)).toBeVisible();
  await expect(page.getByText(`${winner} is preferred by 2 of 2 listeners.`)).toBeVisible();
  await page.getByRole('button', { name: 'Mark the winner Approved' }).click();
  await expect(page.getByText(`${winner} is Approved.`)).toBeVisible();
  const winnerNumber = /^Version (\d+)/.exec(winner)?.[1] ?? '';
  const winnerId = { '1': owner.versionId, '2': v2.versionId, '3': v3.versionId }[winnerNumber];
  await page.goto(`/projects/${owner.projectId}`);
  const rows = page.getByRole('list', { name: 'Version list' }).getByRole('listitem');
  await expect(
    rows.filter({ hasText: `Version ${winnerNumber}` }).getByText('Approved'),
  ).toBeVisible();
  await expect(rows.filter({ hasText: 'Approved' })).toHaveCount(1);
  expect(winnerId).toBeTruthy();
});
