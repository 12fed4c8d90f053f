import type { CollectionLink } from '@takes/contract';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '../../lib/format';
import { axeViolations } from '../../ui/axe-test-support';
import { renderAt, stubApi } from '../repos/test-support';
import { CollectionPage } from './collection-page';
import { available, collection, unavailable } from './test-support';

/** A link as the server lists it; no receipts, no comments unless a test says so. */
function link(overrides: Partial<CollectionLink> = {}): CollectionLink {
  return {
    id: 'l1',
    key: 'k1',
    url: '/share/k1',
    name: 'Road trip',
    recipient: null,
    expires_at: null,
    download_enabled: false,
    has_password: false,
    revoked: false,
    created_at: '2026-02-01T12:00:00.000Z',
    receipts: [],
    emailed: false,
    comments: [],
    ...overrides,
  };
}

const roadTrip = () =>
  collection(
    [
      available('a'),
      available('b', { message: null, version_number: 4 }),
      unavailable('x', 'no_access'),
    ],
    { name: 'Road trip' },
  );

let writeText: ReturnType<typeof vi.fn>;

beforeEach(() => {
  writeText = vi.fn(() => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/**
 * Serves the collection and its links; DELETE of a link revokes it (204), POST makes `made`.
 * `links` is what the list answers now.
 */
function stubLinks(initial: CollectionLink[], made: CollectionLink[] = []) {
  const state = { links: initial };
  const fetchMock = stubApi({
    '/api/collections/c1': roadTrip(),
    '/api/collections/c1/links': (_url: URL, init: RequestInit | undefined) => {
      if (init?.method !== 'POST') return { links: state.links };
      state.links = [...made, ...state.links];
      return { status: 201, body: { links: made } };
    },
    ...Object.fromEntries(
      initial.map((one) => [
        `/api/collections/c1/links/${one.id}`,
        () => {
          state.links = state.links.map((l) => (l.id === one.id ? { ...l, revoked: true } : l));
          return Promise.resolve(new Response(null, { status: 204 }));
        },
      ]),
    ),
  });
  return { fetchMock, state };
}

function renderPage() {
  renderAt(<CollectionPage />, { pattern: '/collections/:id', url: '/collections/c1' });
}

async function openLinksTab() {
  renderPage();
  fireEvent.click(await screen.findByRole('tab', { name: 'Links' }));
}

/** The row of the link whose heading reads `name` (badges included). */
function row(name: RegExp | string) {
  return screen.getByRole('heading', { name, level: 3 }).closest('li')!;
}

describe('Collection page tabs', () => {
  it('opens on Items; arrow keys, Home and End move between Items and Links', async () => {
    const { fetchMock } = stubLinks([link()]);
    renderPage();
    const items = await screen.findByRole('tab', { name: 'Items' });
    const links = screen.getByRole('tab', { name: 'Links' });
    expect(screen.getByRole('tablist', { name: 'Collection' })).toBeTruthy();
    expect(items.getAttribute('aria-selected')).toBe('true');
    expect(links.getAttribute('aria-selected')).toBe('false');
    expect(links.tabIndex).toBe(-1);
    const panel = screen.getByRole('tabpanel', { name: 'Items' });
    expect(within(panel).getByRole('list', { name: 'Collection items' })).toBeTruthy();
    // The links are not asked for until their tab opens.
    expect(fetchMock.mock.calls.some(([url]) => url.endsWith('/links'))).toBe(false);

    act(() => items.focus());
    fireEvent.keyDown(items, { key: 'ArrowRight' });
    expect(links.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(links);
    const linksPanel = screen.getByRole('tabpanel', { name: 'Links' });
    expect(await within(linksPanel).findByRole('list', { name: 'Share links' })).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Collection items' })).toBeNull();

    fireEvent.keyDown(links, { key: 'ArrowLeft' });
    expect(items.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(items);
    fireEvent.keyDown(items, { key: 'End' });
    expect(document.activeElement).toBe(links);
    fireEvent.keyDown(links, { key: 'Home' });
    expect(document.activeElement).toBe(items);
    // Wrapping round: Left from the first tab goes to the last.
    fireEvent.keyDown(items, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(links);
    expect(screen.getByRole('tabpanel', { name: 'Links' })).toBeTruthy();
  });
});

describe('CollectionLinksTab', () => {
  it('lists the links newest first with recipient, badges and expiry', async () => {
    stubLinks([
      link({ id: 'old', name: 'First cut', created_at: '2026-01-10T12:00:00.000Z' }),
      link({
        id: 'new',
        name: 'Label demo',
        created_at: '2026-03-10T12:00:00.000Z',
        recipient: { name: 'Ana Silva', email: 'ana@example.com' },
        emailed: true,
        has_password: true,
        expires_at: '2099-05-01T12:00:00.000Z',
      }),
      link({
        id: 'gone',
        name: 'Old promo',
        created_at: '2026-02-10T12:00:00.000Z',
        revoked: true,
      }),
    ]);
    await openLinksTab();
    const list = await screen.findByRole('list', { name: 'Share links' });
    const headings = within(list)
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent);
    expect(headings).toEqual(['Label demoPassword', 'Old promoRevoked', 'First cut']);

    const demo = row('Label demo Password');
    expect(demo.textContent).toContain('For Ana Silva · ana@example.com · Emailed');
    expect(demo.textContent).toContain(`Expires ${formatDate('2099-05-01T12:00:00.000Z')}`);
    expect(
      within(demo).getByRole('button', { name: 'Revoke “Label demo for Ana Silva”' }),
    ).toBeTruthy();
    expect(row('First cut').textContent).toContain('Never expires');
    expect(within(row('First cut')).queryByText('Password')).toBeNull();
    // A revoked link can no longer be copied or revoked.
    const revoked = row('Old promo Revoked');
    expect(within(revoked).queryByRole('button')).toBeNull();
  });

  it('shows receipts per item by its title in collection order, a removed item, and "Not played yet"', async () => {
    stubLinks([
      link({
        id: 'l1',
        name: 'Label demo',
        download_enabled: true,
        receipts: [
          {
            item_id: 'gone-item',
            plays_started: 1,
            plays_30s: 0,
            plays_90: 0,
            downloads: 0,
            last_activity_at: '2026-02-02T12:00:00.000Z',
          },
          {
            item_id: 'b',
            plays_started: 1,
            plays_30s: 1,
            plays_90: 1,
            downloads: 1,
            last_activity_at: '2026-02-04T12:00:00.000Z',
          },
          {
            item_id: 'a',
            plays_started: 3,
            plays_30s: 2,
            plays_90: 1,
            downloads: 0,
            last_activity_at: '2026-02-03T12:00:00.000Z',
          },
        ],
      }),
      link({ id: 'l2', name: 'Quiet one', created_at: '2026-01-01T12:00:00.000Z' }),
    ]);
    await openLinksTab();
    const listens = await screen.findByRole('list', { name: 'Listens on “Label demo”' });
    expect(
      within(listens)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      `Mix a3 plays · 2 played 30 s · 1 played to 90 % · 0 downloads · Last activity ${formatDate('2026-02-03T12:00:00.000Z')}`,
      `Version 41 play · 1 played 30 s · 1 played to 90 % · 1 download · Last activity ${formatDate('2026-02-04T12:00:00.000Z')}`,
      `Removed item1 play · 0 played 30 s · 0 played to 90 % · 0 downloads · Last activity ${formatDate('2026-02-02T12:00:00.000Z')}`,
    ]);
    expect(within(row('Label demo')).queryByText('Not played yet')).toBeNull();
    expect(within(row('Quiet one')).getByText('Not played yet')).toBeTruthy();
  });

  it('leaves downloads out of the receipts of a link that does not allow them', async () => {
    stubLinks([
      link({
        receipts: [
          {
            item_id: 'a',
            plays_started: 2,
            plays_30s: 0,
            plays_90: 0,
            downloads: 0,
            last_activity_at: '2026-02-03T12:00:00.000Z',
          },
        ],
      }),
    ]);
    await openLinksTab();
    const listens = await screen.findByRole('list', { name: 'Listens on “Road trip”' });
    expect(listens.textContent).toContain('2 plays · 0 played 30 s · 0 played to 90 % · Last');
    expect(listens.textContent).not.toContain('download');
  });

  it("shows each link's comments: author, time position, content and item title", async () => {
    stubLinks([
      link({
        recipient: { name: 'Ana Silva', email: null },
        comments: [
          {
            id: 'm1',
            item_id: 'a',
            author: 'Ana Silva',
            content: 'Love the bass here',
            timestamp: 65.4,
            created_at: '2026-02-05T12:00:00.000Z',
          },
          {
            id: 'm2',
            item_id: 'gone-item',
            author: 'Ana Silva',
            content: 'Where did this one go?',
            timestamp: null,
            created_at: '2026-02-06T12:00:00.000Z',
          },
        ],
      }),
    ]);
    await openLinksTab();
    const comments = await screen.findByRole('list', {
      name: 'Comments on “Road trip for Ana Silva”',
    });
    const [first, second] = within(comments).getAllByRole('listitem');
    expect(first!.textContent).toBe(
      `Ana Silvaon Mix aat 1:05${formatDate('2026-02-05T12:00:00.000Z')}Love the bass here`,
    );
    expect(second!.textContent).toBe(
      `Ana Silvaon Removed item${formatDate('2026-02-06T12:00:00.000Z')}Where did this one go?`,
    );
  });

  it('revokes after a confirmation: DELETE, then the row reads Revoked', async () => {
    const { fetchMock } = stubLinks([
      link({ id: 'l1', name: 'Label demo' }),
      link({ id: 'l2', name: 'Other', created_at: '2026-01-01T12:00:00.000Z' }),
    ]);
    await openLinksTab();
    await screen.findByRole('list', { name: 'Share links' });
    const deletes = () =>
      fetchMock.mock.calls
        .filter(([, init]) => init?.method === 'DELETE')
        .map(([url]) => new URL(url, 'http://localhost').pathname);

    // Cancel leaves it be.
    fireEvent.click(screen.getByRole('button', { name: 'Revoke “Label demo”' }));
    let confirm = screen.getByRole('dialog', { name: 'Revoke link' });
    expect(confirm.textContent).toContain('Revoke “Label demo”?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deletes()).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Revoke “Label demo”' }));
    confirm = screen.getByRole('dialog', { name: 'Revoke link' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    const heading = await screen.findByRole('heading', { name: 'Label demo Revoked', level: 3 });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deletes()).toEqual(['/api/collections/c1/links/l1']);
    expect(within(heading.closest('li')!).queryByRole('button')).toBeNull();
    expect(document.activeElement).toBe(heading);
    expect(within(row('Other')).queryByText('Revoked')).toBeNull();
  });

  it('keeps the confirmation open with the message when revoking fails', async () => {
    const { fetchMock } = stubLinks([link({ name: 'Label demo' })]);
    await openLinksTab();
    await screen.findByRole('list', { name: 'Share links' });
    const inner = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation((input: string, init?: RequestInit) =>
      init?.method === 'DELETE'
        ? Promise.resolve(
            new Response(JSON.stringify({ error: 'Link not found' }), { status: 404 }),
          )
        : inner(input, init),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Revoke “Label demo”' }));
    const confirm = screen.getByRole('dialog', { name: 'Revoke link' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    expect((await within(confirm).findByRole('alert')).textContent).toBe('Link not found');
    expect(within(row('Label demo')).queryByText('Revoked')).toBeNull();
  });

  it("copies a link's full address", async () => {
    stubLinks([link({ name: 'Label demo', url: '/share/k-demo' })]);
    await openLinksTab();
    fireEvent.click(await screen.findByRole('button', { name: 'Copy link “Label demo”' }));
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/share/k-demo`),
    );
    expect(screen.getByRole('button', { name: 'Copied link “Label demo”' }).textContent).toBe(
      'Copied!',
    );
  });

  it("says 'No links yet' with 'Share collection'; a link made there shows in the list", async () => {
    const { fetchMock } = stubLinks(
      [],
      [link({ id: 'n1', name: 'Fresh link', url: '/share/k-fresh' })],
    );
    await openLinksTab();
    const panel = screen.getByRole('tabpanel', { name: 'Links' });
    expect(await within(panel).findByText('No links yet')).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Share collection' }));
    const dialog = screen.getByRole('dialog', { name: 'Share collection' });
    expect(within(dialog).getByRole<HTMLInputElement>('textbox', { name: 'Link name' }).value).toBe(
      'Road trip',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(
      (await within(dialog).findByRole<HTMLInputElement>('textbox', { name: 'Share URL' })).value,
    ).toBe(`${window.location.origin}/share/k-fresh`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Fresh link', level: 3 })).toBeTruthy();
    expect(
      fetchMock.mock.calls.filter(
        ([url, init]) => url.endsWith('/links') && (init?.method ?? 'GET') === 'GET',
      ),
    ).toHaveLength(2);
  });

  it("the header's 'Share collection' opens the dialog from the Items tab", async () => {
    stubLinks([]);
    renderPage();
    await screen.findByRole('heading', { name: 'Road trip', level: 1 });
    const share = screen.getByRole('button', { name: 'Share collection' });
    act(() => share.focus());
    fireEvent.click(share);
    const dialog = screen.getByRole('dialog', { name: 'Share collection' });
    expect(document.activeElement).toBe(within(dialog).getByRole('textbox', { name: 'Link name' }));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(share);
  });

  it("shows the server's message when the links cannot be read", async () => {
    stubApi({
      '/api/collections/c1': roadTrip(),
      '/api/collections/c1/links': { status: 500, body: { error: 'Database is down' } },
    });
    await openLinksTab();
    expect((await screen.findByRole('alert')).textContent).toBe('Database is down');
  });

  it('has no axe violations on the Links tab', async () => {
    stubLinks([
      link({
        has_password: true,
        recipient: { name: 'Ana', email: 'ana@example.com' },
        receipts: [
          {
            item_id: 'a',
            plays_started: 1,
            plays_30s: 1,
            plays_90: 0,
            downloads: 0,
            last_activity_at: '2026-02-03T12:00:00.000Z',
          },
        ],
        comments: [
          {
            id: 'm1',
            item_id: 'a',
            author: 'Ana',
            content: 'Nice',
            timestamp: 3,
            created_at: '2026-02-05T12:00:00.000Z',
          },
        ],
      }),
      link({ id: 'l2', name: 'Gone', revoked: true, created_at: '2026-01-01T12:00:00.000Z' }),
    ]);
    await openLinksTab();
    await screen.findByRole('list', { name: 'Share links' });
    expect(await axeViolations()).toEqual([]);
  });
});
