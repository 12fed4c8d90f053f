/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { seedUser } from './support/accounts';
import { expect, test } from './support/test';
import { startThrottleProxy, type ThrottleProxy } from './support/throttle-proxy';
import { toneWav } from './support/wav';

test.describe.configure({ timeout: 120_000 });

/** The web client's PATCH size (CHUNK_BYTES in web/src/features/upload/upload-client.ts). */
const CHUNK_BYTES = 8 * 1024 * 1024;
/** The uplink: 6 MB/s, so 60 MB take about 10 s. */
const UPLINK_BYTES_PER_SECOND = 6 * 1024 * 1024;

interface UploadRow {
  size: number;
  received_bytes: number;
  patches: number;
  state: string;
}

/** The server's own record of a resumable upload, read from its database (read-only). */
function uploadRow(id: string): UploadRow | undefined {
  const file = path.join(process.env.TAKES_E2E_DATA_DIR as string, 'takes.sqlite');
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare('select size, received_bytes, patches, state from resumable_uploads where id = ?')
      .get(id) as UploadRow | undefined;
    return row && { ...row, size: Number(row.size), received_bytes: Number(row.received_bytes) };
  } finally {
    db.close();
  }
}

let proxy: ThrottleProxy | undefined;
test.afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

test('a 60 MB upload taken offline at about 40 % resumes where it stopped and processes', async ({
  page,
  baseURL,
}, testInfo) => {
  const startedAt = Date.now();
  // 44.1 kHz 16-bit mono, 11.5 minutes: about 60 MB (58.4 MiB).
  const wav = toneWav(690, 440, 44_100);
  expect(wav.length).toBeGreaterThan(60_000_000);
  // Past 50 MB Playwright takes a file from disk only.
  const file = testInfo.outputPath('Long Night.wav');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, wav);

  proxy = await startThrottleProxy(baseURL as string, UPLINK_BYTES_PER_SECOND);
  const through = proxy;
  // Signed up straight at the server; the session cookie (host 127.0.0.1) also goes to the proxy.
  await seedUser(page.request, baseURL, 'resumable-upload');
  await page.goto(`${through.origin}/upload`);
  await expect(page).toHaveURL(`${through.origin}/upload`);

  await page.getByLabel('Audio file').setInputFiles(file);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const bar = page.getByRole('progressbar', { name: 'Uploading' });
  await expect(bar).toBeVisible();

  // About 40 % has reached the server (what the proxy passed on, not what the page was told), and
  // a PATCH is in the middle of its chunk: the break then falls inside one, not between two.
  const midChunk = () =>
    through.patches.some(
      (p) => p.state === 'sending' && p.forwarded >= 1024 * 1024 && p.forwarded <= CHUNK_BYTES / 2,
    );
  await expect
    .poll(() => through.forwardedPatchBytes() / wav.length >= 0.4 && midChunk(), {
      timeout: 30_000,
      intervals: [50],
    })
    .toBe(true);
  const shownAtBreak = Number(await bar.getAttribute('aria-valuenow'));
  // Offline: the browser (no new requests) and the link (the request sending is cut).
  await page.context().setOffline(true);
  through.setOffline(true);
  const offlineAt = Date.now();

  // The PATCH in flight is cut; the server keeps what arrived before the break.
  await expect
    .poll(() => through.patches.some((p) => p.state === 'cut'), { timeout: 10_000 })
    .toBe(true);
  const cut = through.patches.find((p) => p.state === 'cut');
  if (!cut) throw new Error('no PATCH was cut');
  const uploadId = cut.uploadId;
  await expect
    .poll(() => uploadRow(uploadId)?.received_bytes ?? 0, { timeout: 10_000 })
    .toBeGreaterThan(cut.offset);
  const atBreak = uploadRow(uploadId) as UploadRow;
  expect(atBreak.state).toBe('receiving');
  expect(atBreak.size).toBe(wav.length);
  expect(atBreak.received_bytes).toBeGreaterThan(0.35 * wav.length);
  expect(atBreak.received_bytes).toBeLessThan(0.6 * wav.length);
  // The break fell inside a chunk: resuming at a chunk's start would send bytes twice.
  expect(atBreak.received_bytes % CHUNK_BYTES).not.toBe(0);
  const patchesBeforeBreak = through.patches.length;

  // Offline for a few seconds: nothing gets through meanwhile.
  await page.waitForTimeout(3_000);
  expect(through.patches.length).toBe(patchesBeforeBreak);
  expect(uploadRow(uploadId)?.received_bytes).toBe(atBreak.received_bytes);
  through.setOffline(false);
  await page.context().setOffline(false);
  const onlineAt = Date.now();

  // The upload goes on and the version processes; the page then opens the project.
  const stages = page.getByRole('region', { name: 'Processing' });
  await expect(stages).toBeVisible({ timeout: 60_000 });
  const uploadedAt = Date.now();
  await expect(stages.locator('[data-stage="Waveform"]')).toHaveAttribute('data-done', 'true', {
    timeout: 60_000,
  });
  await expect(page).toHaveURL(/\/projects\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Long Night', level: 1 })).toBeVisible();

  // The first PATCH after the break starts at exactly the bytes the server had kept.
  const resumed = through.patches.slice(patchesBeforeBreak).filter((p) => p.uploadId === uploadId);
  expect(resumed.length).toBeGreaterThan(0);
  expect(resumed[0]?.offset).toBe(atBreak.received_bytes);
  // Every PATCH that reached the server starts past the one before: no range was sent again.
  const offsets = through.patches.filter((p) => p.uploadId === uploadId).map((p) => p.offset);
  for (let i = 1; i < offsets.length; i++)
    expect(offsets[i] as number).toBeGreaterThan(offsets[i - 1] as number);

  // On the server: every byte arrived exactly once, over more than one PATCH.
  const after = uploadRow(uploadId) as UploadRow;
  expect(after.state).toBe('finished');
  expect(after.received_bytes).toBe(wav.length);
  expect(after.patches).toBeGreaterThanOrEqual(2);
  expect(after.patches).toBe(through.patches.filter((p) => p.uploadId === uploadId).length);

  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const figures = {
    fileBytes: wav.length,
    uiPercentAtBreak: shownAtBreak,
    serverBytesAtBreak: atBreak.received_bytes,
    serverPercentAtBreak: Math.round((atBreak.received_bytes / wav.length) * 1000) / 10,
    patches: after.patches,
    patchOffsets: offsets,
    offlineSeconds: seconds(onlineAt - offlineAt),
    uploadDoneAfterOnlineSeconds: seconds(uploadedAt - onlineAt),
    totalSeconds: seconds(Date.now() - startedAt),
  };
  console.log(`resumable upload figures: ${JSON.stringify(figures)}`);
  await testInfo.attach('figures', { body: JSON.stringify(figures, null, 2) });
});

test('an upload cut off by closing its tab resumes from another tab with the same file', async ({
  page,
  baseURL,
}, testInfo) => {
  // 44.1 kHz 16-bit mono, 4 minutes: about 21 MB, three PATCHes of 8 MB.
  const wav = toneWav(240, 330, 44_100);
  const file = testInfo.outputPath('Second Verse.wav');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, wav);

  proxy = await startThrottleProxy(baseURL as string, UPLINK_BYTES_PER_SECOND);
  const through = proxy;
  await seedUser(page.request, baseURL, 'resumable-upload-tabs');
  await page.goto(`${through.origin}/upload`);
  await page.getByLabel('Audio file').setInputFiles(file);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('progressbar', { name: 'Uploading' })).toBeVisible();

  // Past the first chunk and in the middle of the second: the tab is closed then.
  await expect
    .poll(
      () =>
        through.patches.some(
          (p) => p.state === 'sending' && p.offset > 0 && p.forwarded >= 1024 * 1024,
        ),
      { timeout: 30_000, intervals: [50] },
    )
    .toBe(true);
  const second = await page.context().newPage();
  await page.close();
  await expect
    .poll(() => through.patches.some((p) => p.state === 'cut'), { timeout: 10_000 })
    .toBe(true);
  const uploadId = (through.patches[0] as { uploadId: string }).uploadId;
  await expect
    .poll(() => uploadRow(uploadId)?.received_bytes ?? 0, { timeout: 10_000 })
    .toBeGreaterThan(CHUNK_BYTES);
  const atClose = uploadRow(uploadId) as UploadRow;
  expect(atClose.state).toBe('receiving');
  expect(atClose.received_bytes).toBeLessThan(wav.length);
  const patchesBeforeClose = through.patches.length;

  // The other tab: the same file with the same fields goes on with the same upload.
  await second.goto(`${through.origin}/upload`);
  await second.getByLabel('Audio file').setInputFiles(file);
  await second.getByRole('button', { name: 'Upload', exact: true }).click();
  const stages = second.getByRole('region', { name: 'Processing' });
  await expect(stages).toBeVisible({ timeout: 60_000 });
  await expect(stages.locator('[data-stage="Waveform"]')).toHaveAttribute('data-done', 'true', {
    timeout: 60_000,
  });
  await expect(second).toHaveURL(/\/projects\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  await expect(second.getByRole('heading', { name: 'Second Verse', level: 1 })).toBeVisible();

  // No second upload was created: every PATCH went to the first one, and the first from the
  // other tab started at exactly the bytes the server had kept.
  expect(new Set(through.patches.map((p) => p.uploadId))).toEqual(new Set([uploadId]));
  const resumed = through.patches.slice(patchesBeforeClose);
  expect(resumed.length).toBeGreaterThan(0);
  expect(resumed[0]?.offset).toBe(atClose.received_bytes);
  const after = uploadRow(uploadId) as UploadRow;
  expect(after.state).toBe('finished');
  expect(after.received_bytes).toBe(wav.length);
  expect(after.patches).toBe(through.patches.length);
});
