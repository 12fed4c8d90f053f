import { expect, test } from './support/test';
import { signedInAt } from './support/workspace';

test('a new user creates a project from the dashboard and deletes it again', async ({
  page,
  baseURL,
}) => {
  await signedInAt(page, baseURL, 'dash-create');

  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  const stats = page.getByRole('region', { name: 'Statistics' });
  await expect(stats.getByText('Last update: Never')).toBeVisible();
  await expect(stats.getByText('+0 in the last month')).toBeVisible();

  // The empty state's button (the heading row has one of the same name).
  await page.getByRole('button', { name: 'Create New Project' }).last().click();
  const dialog = page.getByRole('dialog', { name: 'Create New Project' });
  await dialog.getByRole('button', { name: 'Create Project' }).click();
  await expect(dialog.getByText('Project name is required')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Project Name' }).fill('Night Drive');
  await dialog.getByRole('textbox', { name: 'Description (optional)' }).fill('Synth demo');
  await dialog.getByRole('button', { name: 'Create Project' }).click();

  await expect(page).toHaveURL(/\/projects\/[0-9a-f-]{36}$/);
  // The level-1 heading is the project page's own (the dashboard shows the name as a card title).
  await expect(page.getByRole('heading', { name: 'Night Drive', level: 1 })).toBeVisible();
  await expect(page.getByRole('main').getByText('Private', { exact: true })).toBeVisible();

  await page.getByRole('link', { name: '← Back to Dashboard' }).click();
  const recent = page.getByRole('region', { name: 'Recent Projects' });
  await expect(recent.getByRole('heading', { name: 'Night Drive' })).toBeVisible();
  await expect(recent.getByText('Synth demo')).toBeVisible();
  await expect(recent.getByText('main')).toBeVisible();
  await expect(recent.getByText('Default')).toBeVisible();
  await expect(recent.getByText('1 branch')).toBeVisible();
  await expect(stats.getByText('Projects')).toBeVisible();

  const table = page.getByRole('table');
  await expect(table.getByRole('link', { name: 'Night Drive' })).toBeVisible();
  await table.getByRole('button', { name: 'Delete project Night Drive' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Project' });
  await confirm.getByRole('button', { name: 'Delete Project' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
});
