import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { COPIED_MS, QuickShareDialog, RESET_AFTER_CLOSE_MS } from './quick-share-dialog';

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
let existingLinks: unknown[] = [];

/** The requests that created a link (the list's GETs left out). */
const posts = () =>
  (fetchMock.mock.calls as [string, RequestInit | undefined][]).filter(
    ([, init]) => init?.method === 'POST',
  );

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
  fetchMock = vi.fn((_url: string, init?: RequestInit) =>
    Promise.resolve(
      init?.method === 'POST'
        ? new Response(JSON.stringify(createdLink), { status: 201 })
        : new Response(JSON.stringify(existingLinks), { status: 200 }),
    ),
  );
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
});
