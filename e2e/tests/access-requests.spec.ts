import { ACCESS_REQUEST_MESSAGES, endpoints } from '@takes/contract';
import { newCredentials } from './support/accounts';
import { apiAs, callExpecting } from './support/api';
import {
  memberRoleSelect,
  separatePage,
  setDisplayName,
  signUpWithPassword,
} from './support/members';
import { seedSharedTrack } from './support/sharing';
import { expect, test } from './support/test';

test('a listener asks for access from a share link and the owner grants Commenter', async ({
  page,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.setTimeout(120_000);
  const { owner, link } = await seedSharedTrack(page, baseURL, {
    label: 'access-owner',
    seconds: 5,
    link: { name: 'For Maya', download_enabled: false },
  });
  await setDisplayName(page, baseURL, 'Olga');

  // Maya listens signed out: 'Request access' offers sign-in or sign-up first.
  const maya = await separatePage(browser, baseURL, extraHTTPHeaders);
  const sharePath = `/share/${link.hash}`;
  await maya.goto(sharePath);
  const main = maya.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: owner.projectName })).toBeVisible();
  await main.getByRole('button', { name: 'Request access' }).click();
  await expect(main.getByText(ACCESS_REQUEST_MESSAGES.signInFirst)).toBeVisible();
  await main.getByRole('link', { name: 'Sign up', exact: true }).click();
  await expect(maya).toHaveURL(/\/login\?mode=sign-up/);
  await signUpWithPassword(maya, newCredentials('access-maya'));

  // Back on the share page with the request open.
  await expect(maya).toHaveURL(`${sharePath}?request_access=1`);
  await setDisplayName(maya, baseURL, 'Maya');
  const form = main.getByRole('form', { name: 'Request access' });
  await form.getByRole('textbox', { name: 'Note (optional)' }).fill('I played bass on this one.');
  await form.getByRole('button', { name: 'Request access' }).click();
  await expect(main.getByText(ACCESS_REQUEST_MESSAGES.sent)).toBeVisible();

  // The owner hears of it and grants Commenter from the Members dialog.
  const bell = await callExpecting(
    apiAs(page, baseURL),
    200,
    endpoints.activity.listNotifications,
    {
      query: {},
    },
  );
  const request = bell.items.find(
    (n) => n.activity.summary === `Maya asked to join ${owner.projectName}`,
  );
  expect(request?.activity.href).toBe(`/projects/${owner.projectId}?members=requests`);
  await page.goto(request?.activity.href ?? '/');
  const dialog = page.getByRole('dialog', { name: 'Project members' });
  await expect(dialog).toBeVisible();
  const asked = dialog.getByRole('list', { name: 'Access requests' }).getByRole('listitem');
  await expect(asked).toHaveCount(1);
  await expect(asked).toContainText('Maya');
  await expect(asked).toContainText('I played bass on this one.');
  await asked.getByRole('combobox', { name: 'Role for Maya' }).selectOption({ label: 'Commenter' });
  await asked.getByRole('button', { name: 'Grant access to Maya' }).click();
  await expect(dialog.getByText('Maya joined as Commenter.')).toBeVisible();
  await expect(dialog.getByText('No one is asking to join.')).toBeVisible();
  await expect(memberRoleSelect(dialog, 'Maya')).toHaveValue('commenter');

  // Maya is in, as a Commenter.
  await maya.goto(`/projects/${owner.projectId}`);
  await expect(maya.getByRole('heading', { level: 1, name: owner.projectName })).toBeVisible();
  await expect(
    maya.getByRole('main').locator('header').first().getByText('Commenter', { exact: true }),
  ).toBeVisible();
  await maya.context().close();
});
