import { readFile } from 'node:fs/promises';
import yauzl from 'yauzl';
import { expect, test } from './support/test';
import {
  branchesOf,
  createProject,
  generateWav,
  signedInAt,
  uploadVersion,
} from './support/workspace';

/** The entries of a zip file, by path (the export of one short track is small). */
async function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const listed = await new Promise<yauzl.Entry[]>((resolve, reject) => {
    const all: yauzl.Entry[] = [];
    file.on('entry', (entry: yauzl.Entry) => {
      all.push(entry);
      file.readEntry();
    });
    file.on('end', () => resolve(all));
    file.on('error', reject);
    file.readEntry();
  });
  const entries = new Map<string, Buffer>();
  for (const entry of listed) {
    const chunks: Buffer[] = [];
    for await (const chunk of await file.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    entries.set(entry.fileName, Buffer.concat(chunks));
  }
  return entries;
}

test.describe.configure({ timeout: 60_000 });

test('Export my data: a track uploaded, exported from Settings, downloaded as a zip with the manifest and the original bytes', async ({
  page,
  baseURL,
}) => {
  await signedInAt(page, baseURL, 'export-data');
  const project = await createProject(page, baseURL, 'Export Me');
  const [branch] = await branchesOf(page, project.id);
  const version = await uploadVersion(page, baseURL, {
    projectId: project.id,
    branchId: branch!.id,
    message: 'First mix',
  });

  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Export my data' });
  await section.getByRole('button', { name: 'Export my data' }).click();
  const download = section.getByRole('link', { name: /^Download \(/ });
  await expect(download).toBeVisible({ timeout: 20_000 });
  await expect(section.getByText(/^Available until /)).toBeVisible();

  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toMatch(/^takes-export-\d{4}-\d{2}-\d{2}\.zip$/);
  const entries = await unzip(await readFile(await file.path()));
  const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8')) as {
    projects: { id: string; branches: { versions: { id: string; file: string | null }[] }[] }[];
  };
  expect(manifest.projects.map((p) => p.id)).toEqual([project.id]);
  const [listed] = manifest.projects[0]!.branches[0]!.versions;
  expect(listed).toMatchObject({
    id: version.versionId,
    file: 'projects/Export Me/main/v1 - take.wav',
  });
  // uploadVersion sends generateWav(): the zip holds those very bytes.
  expect(entries.get('projects/Export Me/main/v1 - take.wav')!.equals(generateWav())).toBe(true);
});
