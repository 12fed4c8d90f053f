import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { COPIED_MS } from './copy-link-field';
import { QuickShareDialog, RESET_AFTER_CLOSE_MS } from './quick-share-dialog';

const createdLink = {
  id: 'link-1',
  hash: 'AbCdEfGhIjKlMnOpQrStUv',
  url: '/share/AbCdEfGhIjKlMnOpQrStUv',
  name: 'Night Drive - Version 3',
  version_id: 'v3',
  project_id: 'p1',
  download_enabled: true,
  expires_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  listeners_see_each_other: true,
  play_count: 0,
  last_played_at: null,
};

/** The version's links as listed to its owner (GET); none unless a test says otherwise. */
let existingLinks: Record<string, unknown>[] = [];
/** What a PATCH of a link answers instead of the changed link (a failure), if set. */
let patchFailure: Response | null = null;

/** The requests that created a link (the list's GETs left out). */
const posts = () =>
  (fetchMock.mock.calls as [string, RequestInit | undefined][]).filter(
    ([, init]) => init?.method === 'POST',
  );

/** The changes sent to links: where, and the body. */
const patches = () =>
  (fetchMock.mock.calls as [string, RequestInit | undefined][])
    .filter(([, init]) => init?.method === 'PATCH')
    .map(([url, init]) => ({ url, body: JSON.parse(init?.body as string) as unknown }));

/** The body of the n-th link creation. */
const postedBody = (index = 0) =>
  JSON.parse((posts()[index]?.[1] as RequestInit).body as string) as Record<string, unknown>;

function renderDialog(open = true) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const onClose = vi.fn();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const props = { onClose, versionId: 'v3', projectName: 'Night Drive', versionNumber: 3 };
  const view = render(<QuickShareDialog open={open} {...props} />, { wrapper });
  return {
    onClose,
    setOpen: (next: boolean) => view.rerender(<QuickShareDialog open={next} {...props} />),
  };
}

let fetchMock: ReturnType<typeof vi.fn>;
let writeText: ReturnType<typeof vi.fn>;

beforeEach(() => {
  existingLinks = [];
  patchFailure = null;
  fetchMock = vi.fn((url: string, init?: RequestInit) => {
    if (init?.method === 'POST') {
      const body = JSON.parse(init.body as string) as { password?: string };
      const created = { ...createdLink, has_password: body.password !== undefined };
      return Promise.resolve(new Response(JSON.stringify(created), { status: 201 }));
    }
    if (init?.method === 'PATCH') {
      if (patchFailure) return Promise.resolve(patchFailure);
      const change = JSON.parse(init.body as string) as {
        allow_approval?: boolean;
        password?: string | null;
      };
      const index = existingLinks.findIndex((link) => url === `/api/links/${String(link.id)}`);
      const changed = {
        ...existingLinks[index],
        ...(change.allow_approval !== undefined ? { allow_approval: change.allow_approval } : {}),
        ...(change.password !== undefined ? { has_password: change.password !== null } : {}),
      };
      existingLinks = existingLinks.map((link, i) => (i === index ? changed : link));
      return Promise.resolve(new Response(JSON.stringify(changed), { status: 200 }));
    }
    return Promise.resolve(new Response(JSON.stringify(existingLinks), { status: 200 }));
  });
  vi.stubGlobal('fetch', fetchMock);
  writeText = vi.fn(() => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('QuickShareDialog', () => {
  it('shows the link form and creates a link with the chosen options', async () => {
    renderDialog();
    const dialog = screen.getByRole('dialog', { name: 'Quick Share' });
    expect(dialog.textContent).toContain('Create a link to share this version');
    expect(screen.getByText('Leave blank to never expire')).toBeTruthy();
    const name = screen.getByRole<HTMLInputElement>('textbox', { name: 'Link Name' });
    expect(name.value).toBe('Night Drive - Version 3');
    expect(document.activeElement).toBe(name);

    fireEvent.click(screen.getByRole('checkbox', { name: 'Allow Download' }));
    fireEvent.change(screen.getByLabelText(/Expiration date/), { target: { value: '2099-05-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Link' }));

    const url = await screen.findByRole<HTMLInputElement>('textbox', { name: 'Share URL' });
    expect(url.value).toBe(`${window.location.origin}/share/AbCdEfGhIjKlMnOpQrStUv`);
    const [path, init] = posts()[0] as [string, RequestInit];
    expect(path).toBe('/api/versions/v3/links');
    const body = JSON.parse(init.body as string) as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'Night Drive - Version 3',
      download_enabled: true,
      listeners_see_each_other: true,
    });
    expect(new Date(body.expires_at as string).getFullYear()).toBe(2099);
  });

  it("offers 'Listeners see each other's comments', on by default, and sends it off", async () => {
    renderDialog();
    const option = screen.getByRole<HTMLInputElement>('checkbox', {
      name: "Listeners see each other's comments",
    });
    expect(option.checked).toBe(true);
    expect(
      screen.getByText(
        'When off, people with this link see only comments made through it and the replies to them',
      ),
    ).toBeTruthy();
    fireEvent.click(option);
    fireEvent.click(screen.getByRole('button', { name: 'Create Link' }));
    await screen.findByRole('textbox', { name: 'Share URL' });
    const [, init] = posts()[0] as [string, RequestInit];
    expect(JSON.parse(init.body as string)).toMatchObject({ listeners_see_each_other: false });

    // The next link starts from the default again.
    fireEvent.click(screen.getByRole('button', { name: 'Create Another' }));
    expect(
      screen.getByRole<HTMLInputElement>('checkbox', {
        name: "Listeners see each other's comments",
      }).checked,
    ).toBe(true);
  });

  it("copies the URL and reads 'Copied!' for 2 seconds", async () => {
    renderDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Create Link' }));
    const copy = await screen.findByRole('button', { name: 'Copy' });
    vi.useFakeTimers();
    await act(async () => {
      fireEvent.click(copy);
      await Promise.resolve();
    });
    expect(writeText).toHaveBeenCalledWith(
      `${window.location.origin}/share/AbCdEfGhIjKlMnOpQrStUv`,
    );
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(COPIED_MS - 1);
    });
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
  });

  it('Create Another returns to the form; closing with a link resets it 300 ms later', async () => {
    const { onClose, setOpen } = renderDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Create Link' }));
    await screen.findByRole('textbox', { name: 'Share URL' });
    fireEvent.click(screen.getByRole('button', { name: 'Create Another' }));
    expect(screen.getByRole('button', { name: 'Create Link' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Create Link' }));
    await screen.findByRole('textbox', { name: 'Share URL' });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);

    vi.useFakeTimers();
    setOpen(false);
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(RESET_AFTER_CLOSE_MS - 1);
    });
    setOpen(true);
    // Reopened before the reset: the link is still there.
    expect(screen.getByRole('textbox', { name: 'Share URL' })).toBeTruthy();
    setOpen(false);
    act(() => {
      vi.advanceTimersByTime(RESET_AFTER_CLOSE_MS);
    });
    setOpen(true);
    expect(screen.getByRole('button', { name: 'Create Link' })).toBeTruthy();
  });

  it('sends a password only when one is given, and says what it does', async () => {
    renderDialog();
    const field = screen.getByLabelText<HTMLInputElement>('Password (optional)');
    expect(field.type).toBe('password');
    expect(field.autocomplete).toBe('new-password');
    expect(field.value).toBe('');
    expect(
      screen.getByText('Listeners must enter it before they can see or hear anything.').id,
    ).toBe(field.getAttribute('aria-describedby'));

    // Left blank: the body has no password at all.
    fireEvent.click(screen.getByRole('button', { name: 'Create Link' }));
    await screen.findByRole('textbox', { name: 'Share URL' });
    expect(postedBody(0)).not.toHaveProperty('password');
    expect(screen.queryByText(/asks for the password you set/)).toBeNull();

    // The next link starts without one; this one gets it.
    fireEvent.click(screen.getByRole('button', { name: 'Create Another' }));
    const again = screen.getByLabelText<HTMLInputElement>('Password (optional)');
    expect(again.value).toBe('');
    fireEvent.change(again, { target: { value: 'open sesame' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Link' }));
    await screen.findByRole('textbox', { name: 'Share URL' });
    expect(postedBody(1)).toMatchObject({ password: 'open sesame' });
    expect(
      screen.getByText(
        'This link asks for the password you set. Send it to your listeners separately; it is not shown again.',
      ),
    ).toBeTruthy();
  });

  it('refuses a password shorter than 8 characters before sending anything', async () => {
    renderDialog();
    const field = screen.getByLabelText<HTMLInputElement>('Password (optional)');
    fireEvent.change(field, { target: { value: 'short12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Link' }));
    expect(await screen.findByText('A link password must be at least 8 characters.')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field);
    expect(posts()).toHaveLength(0);

    // Typing clears the message; 8 characters are enough.
    fireEvent.change(field, { target: { value: 'short123' } });
    expect(screen.queryByText('A link password must be at least 8 characters.')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Create Link' }));
    await screen.findByRole('textbox', { name: 'Share URL' });
    expect(posts()).toHaveLength(1);
    expect(postedBody(0)).toMatchObject({ password: 'short123' });
  });

  it('Escape and Cancel close it', async () => {
    const { onClose } = renderDialog();
    fireEvent.keyDown(document, { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(2));
  });
});

describe('QuickShareDialog: the links of this version and their plays', () => {
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

  it("lists each link with 'Played N times · last played …', 'Played 1 time' or 'Not played yet'", async () => {
    existingLinks = [
      {
        ...createdLink,
        id: 'l1',
        name: 'Client Mix - Version 3',
        play_count: 4,
        last_played_at: minutesAgo(5),
      },
      {
        ...createdLink,
        id: 'l2',
        name: 'For Maya',
        play_count: 1,
        last_played_at: minutesAgo(120),
      },
      { ...createdLink, id: 'l3', name: 'Unopened', play_count: 0, last_played_at: null },
    ];
    renderDialog();
    const list = await screen.findByRole('region', { name: 'Links to this version' });
    const rows = within(list)
      .getAllByRole('listitem')
      .map((row) => row.textContent);
    expect(rows).toEqual([
      expect.stringContaining('Client Mix - Version 3Played 4 times · last played 5 minutes ago'),
      expect.stringContaining('For MayaPlayed 1 time · last played 2 hours ago'),
      expect.stringContaining('UnopenedNot played yet'),
    ]);
    expect(await axeViolations()).toEqual([]);
  });

  it('shows no list while the version has no links, and lists the new one once created', async () => {
    renderDialog();
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByRole('region', { name: 'Links to this version' })).toBeNull();
    existingLinks = [createdLink];
    fireEvent.click(screen.getByRole('button', { name: 'Create Link' }));
    const list = await screen.findByRole('region', { name: 'Links to this version' });
    expect(within(list).getByText('Not played yet', { exact: false })).toBeTruthy();
  });

  it("marks protected links with a 'Password' badge", async () => {
    existingLinks = [
      { ...createdLink, id: 'l1', name: 'For Maya', has_password: true, allow_approval: false },
      { ...createdLink, id: 'l2', name: 'Open one', has_password: false, allow_approval: false },
    ];
    renderDialog();
    const list = await screen.findByRole('region', { name: 'Links to this version' });
    const [maya, open] = within(list).getAllByRole('listitem');
    expect(within(maya as HTMLElement).getByText('Password')).toBeTruthy();
    expect(
      within(maya as HTMLElement).getByRole('button', { name: 'Change password of For Maya' }),
    ).toBeTruthy();
    expect(
      within(maya as HTMLElement).getByRole('button', { name: 'Remove password of For Maya' }),
    ).toBeTruthy();
    expect(within(open as HTMLElement).queryByText('Password')).toBeNull();
    expect(
      within(open as HTMLElement).getByRole('button', { name: 'Set password of Open one' }),
    ).toBeTruthy();
    expect(
      within(open as HTMLElement).queryByRole('button', { name: /Remove password/ }),
    ).toBeNull();
    expect(await axeViolations()).toEqual([]);
  });

  it('sets, changes and removes a link’s password, refusing a short one', async () => {
    existingLinks = [
      { ...createdLink, id: 'l1', name: 'For Maya', has_password: false, allow_approval: false },
    ];
    renderDialog();
    const list = await screen.findByRole('region', { name: 'Links to this version' });
    const set = within(list).getByRole('button', { name: 'Set password of For Maya' });
    expect(set.textContent).toBe('Set password');
    fireEvent.click(set);
    const form = within(list).getByRole('form', { name: 'Password of For Maya' });
    const field = within(form).getByLabelText<HTMLInputElement>('Password');
    expect(field.type).toBe('password');
    expect(field.autocomplete).toBe('new-password');
    await waitFor(() => expect(document.activeElement).toBe(field));

    // Too short: said at once, nothing sent.
    fireEvent.change(field, { target: { value: 'seven77' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByText('A link password must be at least 8 characters.')).toBeTruthy();
    expect(patches()).toEqual([]);

    fireEvent.change(field, { target: { value: 'first password' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    // The list is read again: the link now has the badge and can change or lose its password.
    const change = await within(list).findByRole('button', { name: 'Change password of For Maya' });
    expect(patches()).toEqual([{ url: '/api/links/l1', body: { password: 'first password' } }]);
    expect(within(list).queryByRole('form')).toBeNull();
    expect(within(list).getByText('Password')).toBeTruthy();
    expect(document.activeElement).toBe(change);
    expect(within(list).getByRole('status').textContent).toBe('Password set');

    // Cancel sends nothing.
    fireEvent.click(change);
    fireEvent.click(within(list).getByRole('button', { name: 'Cancel' }));
    expect(within(list).queryByRole('form')).toBeNull();
    expect(patches()).toHaveLength(1);

    fireEvent.click(change);
    fireEvent.change(within(list).getByLabelText('New password'), {
      target: { value: 'second password' },
    });
    fireEvent.click(within(list).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(list).queryByRole('form')).toBeNull());
    expect(patches()[1]).toEqual({ url: '/api/links/l1', body: { password: 'second password' } });
    expect(within(list).getByRole('status').textContent).toBe('Password changed');

    fireEvent.click(within(list).getByRole('button', { name: 'Remove password of For Maya' }));
    expect(
      await within(list).findByRole('button', { name: 'Set password of For Maya' }),
    ).toBeTruthy();
    expect(patches()[2]).toEqual({ url: '/api/links/l1', body: { password: null } });
    expect(within(list).queryByText('Password')).toBeNull();
    expect(within(list).queryByRole('button', { name: /Remove password/ })).toBeNull();
    expect(within(list).getByRole('status').textContent).toBe('Password removed');

    // 'Allow approval' still changes on its own.
    fireEvent.click(within(list).getByRole('checkbox', { name: 'Allow approval on For Maya' }));
    await waitFor(() =>
      expect(patches()[3]).toEqual({ url: '/api/links/l1', body: { allow_approval: true } }),
    );
  });

  it("shows the server's refusal and keeps the form for another try", async () => {
    existingLinks = [
      { ...createdLink, id: 'l1', name: 'For Maya', has_password: true, allow_approval: false },
    ];
    patchFailure = Response.json({ error: 'Link not found' }, { status: 404 });
    renderDialog();
    const list = await screen.findByRole('region', { name: 'Links to this version' });
    fireEvent.click(within(list).getByRole('button', { name: 'Change password of For Maya' }));
    const field = within(list).getByLabelText<HTMLInputElement>('New password');
    fireEvent.change(field, { target: { value: 'a new password' } });
    fireEvent.click(within(list).getByRole('button', { name: 'Save' }));
    expect((await within(list).findByRole('alert')).textContent).toBe('Link not found');
    expect(within(list).getByRole('form', { name: 'Password of For Maya' })).toBeTruthy();
    expect(field.value).toBe('a new password');
    expect(document.activeElement).toBe(field);
    expect(patches()).toEqual([{ url: '/api/links/l1', body: { password: 'a new password' } }]);

    // Removing can fail too, and says so.
    fireEvent.click(within(list).getByRole('button', { name: 'Cancel' }));
    expect(within(list).queryByRole('alert')).toBeNull();
    patchFailure = Response.json({ error: 'Not allowed' }, { status: 403 });
    fireEvent.click(within(list).getByRole('button', { name: 'Remove password of For Maya' }));
    expect((await within(list).findByRole('alert')).textContent).toBe('Not allowed');
    expect(within(list).getByText('Password')).toBeTruthy();
  });
});
