/// <reference lib="dom" />
// Some page-side callbacks below read the DOM, so this file needs the DOM types.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { separatePage } from './support/members';
import { expect, test } from './support/test';
import { audioTime, revokeShareLink, seedOwnerTrack, seedSharedTrack } from './support/sharing';

interface OwnerComment {
  content: string;
  author: string;
  visitor_name: string | null;
  timestamp: number | null;
}

/** A browser context with no session: what someone who was only sent the link has. */
const visitorPage = separatePage;

/** The page's own Play button (the global player, outside <main>, has one too). */
function pagePlayButton(page: Page) {
  return page.getByRole('main').getByRole('button', { name: 'Play', exact: true });
}

async function setVisitorName(page: Page, name: string) {
  const setName = page.getByRole('button', { name: 'Set Name' });
  await expect(setName).toBeDisabled();
  await page.getByRole('textbox', { name: 'Your name' }).fill('   ');
  await expect(setName).toBeDisabled();
  await page.getByRole('textbox', { name: 'Your name' }).fill(name);
  await expect(setName).toBeEnabled();
  await setName.click();
  await expect(page.getByText('Commenting as')).toBeVisible();
}

test.describe('share links', () => {
  test('a visitor with the link listens, sets a name and comments at the current time', async ({
    page,
    browser,
    baseURL,
    extraHTTPHeaders,
  }) => {
    test.setTimeout(120_000);
    const { owner, link } = await seedSharedTrack(page, baseURL, {
      label: 'share-owner',
      link: { download_enabled: false },
    });
    expect(link.name).toBe(`${owner.projectName} - Version 1`);
    expect(link.url).toBe(`/share/${link.hash}`);

    const visitor = await visitorPage(browser, baseURL, extraHTTPHeaders);
    await visitor.goto(link.url);
    await expect(visitor.getByRole('heading', { level: 1, name: owner.projectName })).toBeVisible();
    await expect(visitor.getByText('No message')).toBeVisible();
    await expect(visitor.getByText(/^Uploaded /)).toBeVisible();
    await expect(visitor).toHaveTitle(`${owner.projectName} - Version 1`);
    await expect(visitor.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    // This link does not allow downloads.
    await expect(visitor.getByRole('main').getByRole('link', { name: 'Download' })).toHaveCount(0);
    await expect(visitor.getByText('No comments yet.')).toBeVisible();

    await setVisitorName(visitor, 'Vera Visitor');

    // Play through the link's own audio URL and let it run past the first second.
    await pagePlayButton(visitor).click();
    // The focused page is its own transport (no player bar): its button turns to Pause.
    await expect(visitor.getByRole('main').getByRole('button', { name: 'Pause' })).toBeVisible();
    await expect
      .poll(() => visitor.evaluate(() => document.querySelector('audio')?.currentSrc ?? ''))
      .toContain(`/api/links/hash/${link.hash}/audio`);
    await expect.poll(() => audioTime(visitor), { timeout: 15_000 }).toBeGreaterThan(1.5);

    await visitor.getByRole('button', { name: 'Attach current time' }).click();
    const attached = visitor.getByRole('button', { name: /^Remove time \d+:\d\d$/ });
    await expect(attached).toBeVisible();
    const attachedLabel = ((await attached.getAttribute('aria-label')) ?? '').replace(
      'Remove time ',
      '',
    );
    await visitor.getByRole('textbox', { name: 'Comment' }).fill('Love the chorus here');
    await expect(visitor.getByText('20/5000')).toBeVisible();
    await visitor.getByRole('button', { name: 'Post Comment' }).click();

    const comment = visitor.getByRole('article', { name: 'Comment by Vera Visitor' });
    await expect(comment).toBeVisible();
    await expect(comment.getByText('Love the chorus here')).toBeVisible();
    const stamp = comment.getByRole('button', { name: `Play from ${attachedLabel}` });
    await expect(stamp).toBeVisible();
    // Its time is marked on the page's waveform.
    await expect(
      visitor.getByRole('button', {
        name: `Comment at ${attachedLabel} by Vera Visitor: Love the chorus here`,
      }),
    ).toHaveCount(1);
    // The form is cleared for the next comment.
    await expect(visitor.getByRole('textbox', { name: 'Comment' })).toHaveValue('');

    // Clicking the timestamp seeks the player back to it.
    const posted = await audioTime(visitor);
    await expect.poll(() => audioTime(visitor), { timeout: 15_000 }).toBeGreaterThan(posted + 1);
    await stamp.click();
    const [minutes = '0', seconds = '0'] = attachedLabel.split(':');
    const target = Number(minutes) * 60 + Number(seconds);
    await expect.poll(() => audioTime(visitor)).toBeLessThan(target + 1.5);

    // The name is remembered on this device.
    await visitor.reload();
    await expect(visitor.getByText('Commenting as')).toBeVisible();
    await expect(
      visitor.locator('p', { hasText: 'Commenting as' }).getByText('Vera Visitor', { exact: true }),
    ).toBeVisible();

    // Back in the owner's context the comment is on the version.
    const ownerComments = await page.request.get(`/api/versions/${owner.versionId}/comments`);
    expect(ownerComments.status()).toBe(200);
    const listed = (await ownerComments.json()) as OwnerComment[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      content: 'Love the chorus here',
      author: 'Vera Visitor',
      visitor_name: 'Vera Visitor',
    });
    expect(listed[0]?.timestamp).toBeGreaterThan(1);
    await visitor.context().close();

    // On the owner's version page the comment shows, and its timestamp seeks the player there.
    await page.goto(
      `/projects/${owner.projectId}/branches/${owner.branchId}/versions/${owner.versionId}`,
    );
    const onVersion = page.getByRole('article', { name: 'Comment by Vera Visitor' });
    await expect(onVersion.getByText('Love the chorus here')).toBeVisible();
    await onVersion.getByRole('button', { name: `Play from ${attachedLabel}` }).click();
    await expect.poll(() => audioTime(page), { timeout: 15_000 }).toBeGreaterThan(target - 0.5);
    await expect.poll(() => audioTime(page)).toBeLessThan(target + 2);
  });

  test("the owner's team-only comment shows a badge on the version page and never on the share page", async ({
    page,
    browser,
    baseURL,
    extraHTTPHeaders,
  }) => {
    test.setTimeout(90_000);
    const { owner, link } = await seedSharedTrack(page, baseURL, {
      label: 'share-team-only',
      seconds: 3,
      link: { download_enabled: false },
    });
    await page.goto(
      `/projects/${owner.projectId}/branches/${owner.branchId}/versions/${owner.versionId}`,
    );
    const form = page.getByRole('form', { name: 'Comment' });
    await form.getByRole('textbox', { name: 'Comment' }).fill('Vocals could be warmer');
    await form.getByRole('button', { name: 'Post Comment' }).click();
    await expect(page.getByText('Vocals could be warmer')).toBeVisible();
    await form.getByRole('textbox', { name: 'Comment' }).fill('Label wants a louder master');
    await form.getByRole('checkbox', { name: 'Team only' }).check();
    await form.getByRole('button', { name: 'Post Comment' }).click();
    const secret = page.getByTestId('comment').filter({ hasText: 'Label wants a louder master' });
    await expect(secret.getByText('Team only', { exact: true })).toBeVisible();
    const open = page.getByTestId('comment').filter({ hasText: 'Vocals could be warmer' });
    await expect(open.getByText('Team only', { exact: true })).toHaveCount(0);
    // The box is cleared for the next comment.
    await expect(form.getByRole('checkbox', { name: 'Team only' })).not.toBeChecked();

    const visitor = await visitorPage(browser, baseURL, extraHTTPHeaders);
    await visitor.goto(link.url);
    await expect(visitor.getByText('Vocals could be warmer')).toBeVisible();
    await expect(visitor.getByTestId('comment')).toHaveCount(1);
    await expect(visitor.getByText('Label wants a louder master')).toHaveCount(0);
    await setVisitorName(visitor, 'Lena Listener');
    await expect(visitor.getByRole('checkbox', { name: 'Team only' })).toHaveCount(0);
    const api = await visitor.request.get(`/api/links/hash/${link.hash}/comments`);
    expect(((await api.json()) as OwnerComment[]).map((c) => c.content)).toEqual([
      'Vocals could be warmer',
    ]);
    await visitor.context().close();
  });

  test('an expired link shows that it has expired and its audio answers 410', async ({
    page,
    browser,
    baseURL,
    extraHTTPHeaders,
  }) => {
    test.setTimeout(90_000);
    const { link } = await seedSharedTrack(page, baseURL, {
      label: 'share-expired',
      seconds: 3,
      link: { download_enabled: true, expires_at: new Date(Date.now() - 60_000).toISOString() },
    });

    const visitor = await visitorPage(browser, baseURL, extraHTTPHeaders);
    await visitor.goto(link.url);
    await expect(visitor.getByRole('alert')).toHaveText('This link has expired');
    await expect(visitor.getByRole('button', { name: 'Set Name' })).toHaveCount(0);
    const audio = await visitor.request.get(`/api/links/hash/${link.hash}/audio`);
    expect(audio.status()).toBe(410);
    await visitor.context().close();
  });

  test('a revoked link shows Link not found', async ({
    page,
    browser,
    baseURL,
    extraHTTPHeaders,
  }) => {
    test.setTimeout(90_000);
    const { owner, link } = await seedSharedTrack(page, baseURL, {
      label: 'share-revoked',
      seconds: 3,
      link: { download_enabled: false },
    });

    const visitor = await visitorPage(browser, baseURL, extraHTTPHeaders);
    await visitor.goto(link.url);
    await expect(visitor.getByRole('heading', { level: 1, name: owner.projectName })).toBeVisible();

    await revokeShareLink(page.request, baseURL, link.id);
    await visitor.reload();
    await expect(visitor.getByRole('alert')).toHaveText('Link not found');
    expect((await visitor.request.get(`/api/links/hash/${link.hash}/audio`)).status()).toBe(404);
    await visitor.context().close();
  });

  test('markup in a visitor name and a comment renders as text', async ({
    page,
    browser,
    baseURL,
    extraHTTPHeaders,
  }) => {
    test.setTimeout(90_000);
    const { link } = await seedSharedTrack(page, baseURL, {
      label: 'share-xss',
      seconds: 3,
      link: { download_enabled: false },
    });
    const hostileName = '<img src=x onerror="window.__takesXss=1">';
    const hostileComment = '<script>window.__takesXss=2</script><b>bold</b> & <i>more</i>';

    const visitor = await visitorPage(browser, baseURL, extraHTTPHeaders);
    visitor.on('dialog', (dialog) => {
      throw new Error(`unexpected dialog: ${dialog.message()}`);
    });
    await visitor.goto(link.url);
    await setVisitorName(visitor, hostileName);
    await visitor.getByRole('textbox', { name: 'Comment' }).fill(hostileComment);
    await visitor.getByRole('button', { name: 'Post Comment' }).click();

    const comment = visitor.getByTestId('comment');
    await expect(comment).toHaveCount(1);
    await expect(comment.getByText(hostileName, { exact: true })).toBeVisible();
    await expect(comment.getByText(hostileComment, { exact: true })).toBeVisible();
    // Nothing from the payloads became an element or ran.
    await expect(visitor.locator('main img[src="x"]')).toHaveCount(0);
    await expect(visitor.locator('main b, main i, main script')).toHaveCount(0);
    expect(
      await visitor.evaluate(() => (window as unknown as { __takesXss?: number }).__takesXss),
    ).toBeUndefined();

    // A reload renders the stored comment the same way.
    await visitor.reload();
    await expect(
      visitor.getByTestId('comment').getByText(hostileComment, { exact: true }),
    ).toBeVisible();
    await expect(visitor.locator('main img[src="x"]')).toHaveCount(0);
    await visitor.context().close();
  });

  test('the share page has no serious or critical axe violations', async ({
    page,
    browser,
    baseURL,
    extraHTTPHeaders,
  }) => {
    test.setTimeout(90_000);
    const { owner, link } = await seedSharedTrack(page, baseURL, {
      label: 'share-axe',
      seconds: 3,
      link: { download_enabled: true },
    });
    const ownerComment = await page.request.post(`/api/versions/${owner.versionId}/comments`, {
      data: { content: 'Bass is a little loud at the drop', timestamp: 1 },
      headers: { origin: new URL(baseURL ?? '').origin },
    });
    expect(ownerComment.status(), await ownerComment.text()).toBe(201);

    const visitor = await visitorPage(browser, baseURL, extraHTTPHeaders);
    await visitor.goto(link.url);
    await expect(visitor.getByRole('main').getByRole('link', { name: 'Download' })).toBeVisible();
    await expect(visitor.getByTestId('comment')).toHaveCount(1);

    for (const theme of ['light', 'dark'] as const) {
      const isDark = async () =>
        ((await visitor.locator('html').getAttribute('class')) ?? '').split(/\s+/).includes('dark');
      if ((await isDark()) !== (theme === 'dark')) {
        // The focused listener page has no theme toggle: the app starts in the stored theme.
        await visitor.evaluate((value) => window.localStorage.setItem('takes-theme', value), theme);
        await visitor.reload();
        await expect.poll(isDark).toBe(theme === 'dark');
      }
      // The name entry, then the comment form once a name is set.
      for (const step of ['name entry', 'comment form']) {
        const results = await new AxeBuilder({ page: visitor }).analyze();
        const serious = results.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
        expect(serious, `share page, ${step}, ${theme} theme`).toEqual([]);
        if (
          step === 'name entry' &&
          (await visitor.getByRole('button', { name: 'Set Name' }).count())
        ) {
          await setVisitorName(visitor, 'Axel Axe');
        }
      }
    }
    await visitor.context().close();
  });

  test('the owner creates a link in Quick Share, a visitor comments through it, the owner sees it', async ({
    page,
    browser,
    baseURL,
    extraHTTPHeaders,
  }) => {
    test.setTimeout(90_000);
    const owner = await seedOwnerTrack(page, baseURL, 'share-dialog', 3);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(baseURL ?? '').origin,
    });
    await page.goto(
      `/projects/${owner.projectId}/branches/${owner.branchId}/versions/${owner.versionId}`,
    );
    await page.getByRole('main').getByRole('button', { name: 'Share', exact: true }).click();

    const dialog = page.getByRole('dialog', { name: 'Quick Share' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Create a link to share this version')).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Link Name' })).toHaveValue(
      `${owner.projectName} - Version 1`,
    );
    await expect(dialog.getByText('Leave blank to never expire')).toBeVisible();
    await dialog.getByRole('checkbox', { name: 'Allow Download' }).check();
    await dialog.getByRole('button', { name: 'Create Link' }).click();

    const url = dialog.getByRole('textbox', { name: 'Share URL' });
    await expect(url).toHaveValue(
      new RegExp(`^${new URL(baseURL ?? '').origin}/share/[A-Za-z0-9]+$`),
    );
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await expect(dialog.getByRole('button', { name: 'Copied!' })).toBeVisible();
    const shareUrl = await url.inputValue();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shareUrl);
    // 'Copied!' reverts after 2 seconds.
    await expect(dialog.getByRole('button', { name: 'Copy' })).toBeVisible({ timeout: 5_000 });

    await dialog.getByRole('button', { name: 'Create Another' }).click();
    await expect(dialog.getByRole('button', { name: 'Create Link' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(
      page.getByRole('main').getByRole('button', { name: 'Share', exact: true }),
    ).toBeFocused();

    // A fresh browser opens the copied link, listens and comments at the current time.
    const visitor = await visitorPage(browser, baseURL, extraHTTPHeaders);
    await visitor.goto(shareUrl);
    await setVisitorName(visitor, 'Quinn Quickshare');
    await pagePlayButton(visitor).click();
    await expect.poll(() => audioTime(visitor), { timeout: 15_000 }).toBeGreaterThan(1);
    await visitor.getByRole('button', { name: 'Attach current time' }).click();
    await visitor.getByRole('textbox', { name: 'Comment' }).fill('Great mix');
    await visitor.getByRole('button', { name: 'Post Comment' }).click();
    await expect(
      visitor.getByRole('article', { name: 'Comment by Quinn Quickshare' }),
    ).toBeVisible();
    await visitor.context().close();

    // Back on the owner's version page: the comment, and its timestamp seeks the player.
    await page.reload();
    const onVersion = page.getByRole('article', { name: 'Comment by Quinn Quickshare' });
    await expect(onVersion.getByText('Great mix')).toBeVisible();
    const stamp = onVersion.getByRole('button', { name: /^Play from \d+:\d\d$/ });
    const [minutes = '0', seconds = '0'] = ((await stamp.getAttribute('aria-label')) ?? '')
      .replace('Play from ', '')
      .split(':');
    const target = Number(minutes) * 60 + Number(seconds);
    await stamp.click();
    await expect.poll(() => audioTime(page), { timeout: 15_000 }).toBeGreaterThan(target - 0.5);
    await expect.poll(() => audioTime(page)).toBeLessThan(target + 2);
  });
});
