/// <reference lib="dom" />
// The drop builds a DataTransfer in the page, so this file needs the DOM types.
import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { endpoints, type Comment } from '@takes/contract';
import { apiAs, callExpecting } from './support/api';
import { expectNoSeriousViolations } from './support/axe';
import { misfits, settled } from './support/fit';
import { separatePage } from './support/members';
import { createShareLink, seedOwnerTrack } from './support/sharing';
import { expect, test } from './support/test';
import { uploadVersion } from './support/workspace';

/** Comments as DAW markers (issue 46): 'Export comments…' and a marker file dropped back. */

const versionPath = (track: { projectId: string; branchId: string }, versionId: string) =>
  `/projects/${track.projectId}/branches/${track.branchId}/versions/${versionId}`;

/** The downloaded file's text, as lines. */
async function lines(download: Download): Promise<string[]> {
  return (await readFile(await download.path(), 'utf8')).trim().split(/\r?\n/);
}

/** Chooses a format in the open 'Export comments' dialog and downloads the file. */
async function exportAs(page: Page, format: string): Promise<Download> {
  await page.getByRole('button', { name: 'Export comments…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export comments' });
  await dialog.getByRole('combobox', { name: 'Format' }).selectOption({ label: format });
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('link', { name: 'Download' }).click();
  return downloading;
}

test('comments go out as a REAPER marker CSV, and a dropped Audacity label track comes back as comments', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const track = await seedOwnerTrack(page, baseURL, 'markers', 20);
  const api = apiAs(page, baseURL);
  await callExpecting(api, 201, endpoints.comments.addVersionComment, {
    params: { versionId: track.versionId },
    body: { content: 'Kick is muddy', timestamp: 4 },
  });
  await callExpecting(api, 201, endpoints.comments.addVersionComment, {
    params: { versionId: track.versionId },
    body: { content: 'Chorus drags, tighten it', timestamp: 8, end_timestamp: 12 },
  });
  const second = await uploadVersion(page, baseURL, {
    projectId: track.projectId,
    branchId: track.branchId,
    message: 'Second take',
    seconds: 20,
  });

  // Out: the first version's comments as REAPER markers and regions.
  await page.goto(versionPath(track, track.versionId));
  await page.getByRole('button', { name: 'Export comments…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export comments' });
  const format = dialog.getByRole('combobox', { name: 'Format' });
  await expect(format.getByRole('option')).toHaveText([
    'WAV with markers',
    'MIDI markers (Logic, Cubase, Pro Tools)',
    'REAPER marker CSV',
    'Audacity label track',
  ]);
  await expect(dialog.getByRole('checkbox', { name: 'Include resolved' })).not.toBeChecked();
  await settled(page);
  expect(await misfits(page)).toEqual([]);
  await expectNoSeriousViolations(page, 'the export dialog at 390 px');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  const csv = await exportAs(page, 'REAPER marker CSV');
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);
  const rows = await lines(csv);
  expect(rows[0]).toBe('#,Name,Start,End,Length');
  expect(rows.find((row) => row.includes('Kick is muddy'))).toMatch(
    /^M\d+,[^,]*Kick is muddy,0:04\.000,,$/,
  );
  expect(rows.find((row) => row.includes('Chorus drags'))).toMatch(
    /^R\d+,"[^"]*Chorus drags, tighten it",0:08\.000,0:12\.000,0:04\.000$/,
  );
  expect(rows).toHaveLength(3);

  // Back: an Audacity label track dropped on the second version's comment panel.
  await page.goto(versionPath(track, second.versionId));
  const panel = page.getByTestId('marker-import').locator('..');
  await expect(page.getByRole('button', { name: 'Import markers…' })).toBeVisible();
  const labels = '2.000000\t2.000000\tBass too loud\n5.500000\t9.000000\tLovely fill here\n';
  const dataTransfer = await page.evaluateHandle((text) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], 'mix-notes.txt', { type: 'text/plain' }));
    return transfer;
  }, labels);
  await panel.dispatchEvent('dragenter', { dataTransfer });
  await expect(page.getByText('Drop the file to add its markers as comments.')).toBeVisible();
  await panel.dispatchEvent('dragover', { dataTransfer });
  await panel.dispatchEvent('drop', { dataTransfer });

  const confirm = page.getByRole('dialog', { name: 'Import markers' });
  await expect(confirm).toContainText('From mix-notes.txt');
  await expect(
    confirm.getByRole('list', { name: 'Comments to post' }).getByRole('listitem'),
  ).toHaveText([/^0:02\s*Bass too loud$/, /^0:05–0:09\s*Lovely fill here$/]);
  await settled(page);
  expect(await misfits(page)).toEqual([]);
  await expectNoSeriousViolations(page, 'the import confirm step at 390 px');
  await confirm.getByRole('button', { name: 'Post 2 comments' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('Posted 2 comments.')).toBeVisible();

  // The comments are there at their times, by the signed-in owner.
  await expect(panel.getByRole('button', { name: 'Play from 0:02', exact: true })).toBeVisible();
  await expect(
    panel.getByRole('button', { name: 'Play passage 0:05–0:09', exact: true }),
  ).toBeVisible();
  await expect(panel.getByText('Bass too loud', { exact: true })).toBeVisible();
  await expect(panel.getByText('Lovely fill here', { exact: true })).toBeVisible();
  const saved = await api.call(endpoints.comments.listVersionComments, {
    params: { versionId: second.versionId },
    query: { resolved: 'include' },
  });
  const own = saved.filter((comment: Comment) => comment.version_id === second.versionId);
  expect(
    own.map(({ content, timestamp, end_timestamp, team_only }) => ({
      content,
      timestamp,
      end_timestamp,
      team_only,
    })),
  ).toEqual([
    { content: 'Bass too loud', timestamp: 2, end_timestamp: null, team_only: false },
    { content: 'Lovely fill here', timestamp: 5.5, end_timestamp: 9, team_only: false },
  ]);
  await settled(page);
  expect(await misfits(page)).toEqual([]);
  await expectNoSeriousViolations(page, 'the version page after the import at 390 px');
});

test("a share link that allows downloads offers the comments as markers; one that doesn't, not", async ({
  page,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.setTimeout(120_000);
  const track = await seedOwnerTrack(page, baseURL, 'markers-link', 10);
  await callExpecting(apiAs(page, baseURL), 201, endpoints.comments.addVersionComment, {
    params: { versionId: track.versionId },
    body: { content: 'Vocal too quiet', timestamp: 3, end_timestamp: 6 },
  });
  const open = await createShareLink(page.request, baseURL, track.versionId, {
    download_enabled: true,
  });
  const closed = await createShareLink(page.request, baseURL, track.versionId, {
    download_enabled: false,
  });

  const visitor = await separatePage(browser, baseURL, extraHTTPHeaders);
  await visitor.goto(`/share/${open.hash}`);
  await expect(visitor.getByRole('heading', { name: track.projectName })).toBeVisible();
  const labels = await exportAs(visitor, 'Audacity label track');
  expect(labels.suggestedFilename()).toMatch(/\.txt$/);
  const [row] = await lines(labels);
  expect(row).toMatch(/^3\.000000\t6\.000000\t.*Vocal too quiet$/);
  await expectNoSeriousViolations(visitor, 'the share page with the export dialog');

  await visitor.goto(`/share/${closed.hash}`);
  await expect(visitor.getByRole('heading', { name: track.projectName })).toBeVisible();
  await expect(visitor.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  await expect(
    visitor.getByRole('button', { name: 'Play passage 0:03–0:06', exact: true }),
  ).toBeVisible();
  await expect(visitor.getByRole('link', { name: 'Download' })).toHaveCount(0);
  await expect(visitor.getByRole('button', { name: 'Export comments…' })).toHaveCount(0);
  await visitor.context().close();
});
