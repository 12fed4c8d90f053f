import { expect, test } from './support/test';
import { branchesOf, createProject, signedInAt, uploadVersion } from './support/workspace';

test.describe.configure({ timeout: 90_000 });

test('a version is deleted from its page, then the project from its header', async ({
  page,
  baseURL,
}) => {
  await signedInAt(page, baseURL, 'delete');
  const project = await createProject(page, baseURL, 'Short Lived');
  const [main] = await branchesOf(page, project.id);
  if (!main) throw new Error('a new project has a main branch');
  await uploadVersion(page, baseURL, {
    projectId: project.id,
    branchId: main.id,
    message: 'rough',
  });
  await uploadVersion(page, baseURL, {
    projectId: project.id,
    branchId: main.id,
    message: 'better',
  });

  await page.goto(`/projects/${project.id}`);
  const list = page.getByRole('list', { name: 'Version list' });
  await expect(list.locator('li[data-version]')).toHaveCount(2);
  // Newest first, and the first version is selected.
  const card = page.getByRole('article', { name: 'Selected version' });
  await expect(card.getByRole('heading', { name: 'better' })).toBeVisible();

  await card.getByRole('link', { name: 'Open version' }).click();
  await expect(page).toHaveURL(/\/versions\/[0-9a-f-]{36}$/);
  await page.getByRole('main').getByRole('button', { name: 'Delete', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Delete version' })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(page).toHaveURL(`/projects/${project.id}`);
  await expect(list.locator('li[data-version]')).toHaveCount(1);
  await expect(card.getByRole('heading', { name: 'rough' })).toBeVisible();

  await page.getByRole('main').getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Project' });
  await confirm.getByRole('button', { name: 'Delete Project' }).click();
  await expect(page).toHaveURL('/dashboard');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();

  await page.goto(`/projects/${project.id}`);
  await expect(page.getByRole('heading', { name: 'Project not found' })).toBeVisible();
  await expect(
    page.getByText(
      "The project you're looking for doesn't exist or you don't have permission to view it.",
    ),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Return to Dashboard' }).click();
  await expect(page).toHaveURL('/dashboard');
});
