/// <reference lib="dom" />
import { expect, test } from './support/test';
import { createProject, generateWav, signedInAt } from './support/workspace';

test.describe.configure({ timeout: 90_000 });

test('uploading a WAV on the upload page shows the processing stages and opens the project', async ({
  page,
  baseURL,
}) => {
  await signedInAt(page, baseURL, 'upload-wav', '/upload');

  const picker = page.getByLabel('Audio file');
  await picker.setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('x'),
  });
  await expect(
    page.getByText('Invalid file type. Please upload an MP3, WAV, AIFF, FLAC, or AAC file.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upload', exact: true })).toBeDisabled();

  await picker.setInputFiles({
    name: 'First Light.wav',
    mimeType: 'audio/wav',
    buffer: generateWav(2),
  });
  // The project name defaults to the file name without its extension.
  await expect(page.getByRole('textbox', { name: 'Project Name' })).toHaveValue('First Light');
  const tags = page.getByRole('textbox', { name: 'Tags' });
  await tags.fill('demo');
  await tags.press('Enter');
  await expect(page.getByRole('button', { name: 'Remove tag demo' })).toBeVisible();

  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('progressbar', { name: 'Uploading' })).toBeVisible();
  const stages = page.getByRole('region', { name: 'Processing' });
  await expect(stages).toBeVisible();
  for (const stage of ['Metadata', 'Original', 'High (320k)', 'Standard (128k)', 'Waveform']) {
    await expect(stages.locator(`[data-stage="${stage}"]`)).toHaveAttribute('data-done', 'true', {
      timeout: 30_000,
    });
  }

  await expect(page).toHaveURL(/\/projects\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'First Light', level: 1 })).toBeVisible();
  const card = page.getByRole('article', { name: 'Selected version' });
  await expect(card.getByText('demo')).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Version list' }).getByText('Version 1'),
  ).toBeVisible();
});

test('the New Version tab asks for a project, a branch and a message', async ({
  page,
  baseURL,
}) => {
  await signedInAt(page, baseURL, 'upload-tabs', '/upload');
  await page.getByRole('tab', { name: 'New Version' }).click();
  await page
    .getByLabel('Audio file')
    .setInputFiles({ name: 'take.wav', mimeType: 'audio/wav', buffer: generateWav() });
  // Without a project and a branch the upload cannot start.
  await expect(page.getByRole('button', { name: 'Upload', exact: true })).toBeDisabled();
  await expect(page.getByRole('combobox', { name: 'Select Branch' })).toBeDisabled();

  // Switching tabs resets the form.
  await page.getByRole('tab', { name: 'New Track' }).click();
  await expect(page.getByRole('textbox', { name: 'Project Name' })).toHaveValue('');
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL('/dashboard');
});

test('a new version goes to a branch made with "+ New Branch" on the upload page', async ({
  page,
  baseURL,
}) => {
  await signedInAt(page, baseURL, 'upload-version');
  const project = await createProject(page, baseURL, 'Second Take');
  await page.goto('/upload');
  await page.getByRole('tab', { name: 'New Version' }).click();
  await page.getByLabel('Audio file').setInputFiles({
    name: 'take.wav',
    mimeType: 'audio/wav',
    buffer: generateWav(),
  });
  await page.getByRole('combobox', { name: 'Select Project' }).selectOption(project.id);
  await page.getByRole('combobox', { name: 'Select Branch' }).selectOption('+ New Branch');
  const dialog = page.getByRole('dialog', { name: 'Create New Branch' });
  await dialog.getByRole('textbox', { name: 'Branch Name' }).fill('acoustic');
  await dialog.getByRole('button', { name: 'Create Branch' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('combobox', { name: 'Select Branch' })).toHaveValue(/[0-9a-f-]{36}/);

  // The message is required for a new version.
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('Please enter a commit message')).toBeVisible();
  await page.getByRole('textbox', { name: 'Version Message' }).fill('unplugged');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();

  await expect(page).toHaveURL(`/projects/${project.id}`, { timeout: 30_000 });
  await expect(
    page.getByRole('region', { name: 'Branches' }).locator('[data-branch="acoustic"]'),
  ).toContainText('1 version');
});

test('the project page uploads a version in its modal, polls processing and plays the row', async ({
  page,
  baseURL,
}) => {
  await signedInAt(page, baseURL, 'upload-modal');
  const project = await createProject(page, baseURL, 'Modal Upload');
  await page.goto(`/projects/${project.id}`);

  await page.getByRole('button', { name: 'Upload Version' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload New Version' });
  await expect(dialog.getByText('Branch: main')).toBeVisible();
  await dialog.getByLabel('Audio file').setInputFiles({
    name: 'take.wav',
    mimeType: 'audio/wav',
    buffer: generateWav(3),
  });
  await dialog.getByRole('textbox', { name: 'Version Message' }).fill('from the modal');
  await dialog.getByRole('textbox', { name: 'Tags' }).fill('modal');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await dialog.getByRole('button', { name: 'Upload Version' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });

  const card = page.getByRole('article', { name: 'Selected version' });
  await expect(card.getByRole('heading', { name: 'from the modal' })).toBeVisible();
  await expect(card.getByText('Processing complete')).toBeVisible({ timeout: 30_000 });

  const row = page.getByRole('list', { name: 'Version list' }).locator('li[data-version="1"]');
  await row.getByRole('button', { name: 'Play version 1' }).click();
  await expect(row.getByText('Playing')).toBeVisible({ timeout: 15_000 });
  // The global player's time moves while it plays.
  const playedSeconds = () =>
    page.evaluate(() => document.querySelector('audio')?.currentTime ?? 0);
  await expect.poll(playedSeconds, { timeout: 15_000 }).toBeGreaterThan(1);
  await row.getByRole('button', { name: 'Pause version 1' }).click();
  await expect(row.getByText('Playing')).toBeHidden();
});
