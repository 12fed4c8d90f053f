import { expect, test } from './support/test';
import { branchesOf, createProject, signedInAt, uploadVersion } from './support/workspace';

test.describe.configure({ timeout: 90_000 });

test('the navbar search finds a version by its tag', async ({ page, baseURL }) => {
  await signedInAt(page, baseURL, 'search');
  const project = await createProject(page, baseURL, 'Harbour Lights');
  const [main] = await branchesOf(page, project.id);
  if (!main) throw new Error('a new project has a main branch');
  const tag = `tag${Date.now().toString(36)}`;
  await uploadVersion(page, baseURL, {
    projectId: project.id,
    branchId: main.id,
    message: 'vocal comp',
    tags: [tag, 'vocals'],
  });

  const search = page.getByRole('searchbox', { name: 'Search tracks, artists, or projects' });
  // Blank text is not submitted.
  await search.fill('   ');
  await search.press('Enter');
  await expect(page).toHaveURL('/dashboard');

  await search.fill(tag);
  await search.press('Enter');
  await expect(page).toHaveURL(`/search?q=${tag}`);
  const versions = page.getByRole('region', { name: 'Versions' });
  await versions.getByRole('link', { name: /Version 1: vocal comp/ }).click();
  await expect(page).toHaveURL(/\/projects\/.+\/branches\/.+\/versions\/.+/);
});
