import { expect, test } from './support/test';
import { createProject, signedInAt } from './support/workspace';

test('branches are created, renamed, made default and deleted on the project page', async ({
  page,
  baseURL,
}) => {
  await signedInAt(page, baseURL, 'branches');
  const project = await createProject(page, baseURL, 'Branch Work');
  await page.goto(`/projects/${project.id}`);

  await page.getByRole('button', { name: 'Make public' }).click();
  // Issue 14: 'Make public' first says what Public means, in a confirmation.
  await page
    .getByRole('dialog', { name: 'Make this project public?' })
    .getByRole('button', { name: 'Make public' })
    .click();
  await expect(page.getByRole('button', { name: 'Make private' })).toBeVisible();
  await expect(page.getByText('Public', { exact: true })).toBeVisible();

  const panel = page.getByRole('region', { name: 'Branches' });
  await expect(panel.getByRole('button', { name: /^main/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // The default branch offers neither set-default nor delete.
  await expect(panel.getByRole('button', { name: 'Delete main' })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Set main as default' })).toHaveCount(0);
  await expect(page.getByText('No versions available')).toBeVisible();

  await panel.getByRole('button', { name: 'New Branch' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Branch' });
  await dialog.getByRole('textbox', { name: 'Branch Name' }).fill('   ');
  await dialog.getByRole('button', { name: 'Create Branch' }).click();
  await expect(dialog.getByText('Branch name is required')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Branch Name' }).fill('  mixdown ');
  await dialog.getByRole('button', { name: 'Create Branch' }).click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByRole('button', { name: /^mixdown/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // A duplicate name is refused by the server and the modal stays open.
  await panel.getByRole('button', { name: 'New Branch' }).click();
  await dialog.getByRole('textbox', { name: 'Branch Name' }).fill('mixdown');
  await dialog.getByRole('button', { name: 'Create Branch' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Failed to create branch:');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await panel.getByRole('button', { name: 'Rename mixdown' }).click();
  await panel.getByRole('textbox', { name: 'New name for mixdown' }).fill('final mix');
  await panel.getByRole('button', { name: 'Confirm rename' }).click();
  await expect(panel.getByRole('button', { name: /^final mix/ })).toBeVisible();

  await panel.getByRole('button', { name: 'Set final mix as default' }).click();
  await expect(panel.locator('[data-branch="final mix"]').getByText('Default')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Delete main' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Delete final mix' })).toHaveCount(0);

  await panel.getByRole('button', { name: 'Delete main' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Branch' });
  await confirm.getByRole('button', { name: 'Delete Branch' }).click();
  await expect(confirm).toBeHidden();
  await expect(panel.locator('[data-branch="main"]')).toHaveCount(0);
  await expect(panel.locator('li[data-branch]')).toHaveCount(1);
});
