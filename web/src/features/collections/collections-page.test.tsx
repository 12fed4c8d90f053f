import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { Link } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { Landed, renderAt, stubApi } from '../repos/test-support';
import { CollectionsPage } from './collections-page';
import { collection, summary } from './test-support';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderList() {
  renderAt(<CollectionsPage />, {
    pattern: '/collections',
    url: '/collections',
    routes: [{ path: '/collections/:id', element: <Landed name="Collection page" /> }],
  });
}

describe('CollectionsPage', () => {
  it('shows the empty state', async () => {
    stubApi({ '/api/collections': { collections: [] } });
    renderList();
    expect(await screen.findByText('No collections yet')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Collections', level: 1 })).toBeTruthy();
  });

  it('lists collections with their count, total duration and date', async () => {
    stubApi({
      '/api/collections': {
        collections: [summary({ name: 'Road trip', item_count: 3, total_duration: 245 })],
      },
    });
    renderList();
    const list = await screen.findByRole('list', { name: 'Your collections' });
    const link = within(list).getByRole('link', { name: 'Road trip' });
    expect(link.getAttribute('href')).toBe('/collections/c1');
    expect(within(list).getByText('3 items · 4:05')).toBeTruthy();
    expect(within(list).getByText('Jan 5, 2026')).toBeTruthy();
  });

  it('creates a collection from the dialog, and it appears', async () => {
    let created = false;
    const fetchMock = stubApi({
      '/api/collections': (_url: URL, init: RequestInit | undefined) => {
        if (init?.method === 'POST') {
          created = true;
          return { status: 201, body: collection([], { id: 'c9', name: 'Demos' }) };
        }
        return { collections: created ? [summary({ id: 'c9', name: 'Demos' })] : [] };
      },
    });
    renderList();
    await screen.findByText('No collections yet');
    fireEvent.click(screen.getByRole('button', { name: 'New Collection' }));
    const dialog = screen.getByRole('dialog', { name: 'New Collection' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '  Demos ' } });
    fireEvent.change(within(dialog).getByLabelText(/Description/), {
      target: { value: 'Rough ones' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect((await screen.findByTestId('landed-at')).textContent).toBe('/collections/c9');
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(post![1]!.body as string)).toEqual({
      name: 'Demos',
      description: 'Rough ones',
    });
    expect(created).toBe(true);
  });

  it('a created collection appears in the list on the way back', async () => {
    let created = false;
    stubApi({
      '/api/collections': (_url: URL, init: RequestInit | undefined) => {
        if (init?.method === 'POST') {
          created = true;
          return { status: 201, body: collection([], { id: 'c9', name: 'Demos' }) };
        }
        return { collections: created ? [summary({ id: 'c9', name: 'Demos' })] : [] };
      },
    });
    renderAt(<CollectionsPage />, {
      pattern: '/collections',
      url: '/collections',
      routes: [{ path: '/collections/:id', element: <Link to="/collections">Back</Link> }],
    });
    await screen.findByText('No collections yet');
    fireEvent.click(screen.getByRole('button', { name: 'New Collection' }));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Demos' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    fireEvent.click(await screen.findByRole('link', { name: 'Back' }));
    const list = await screen.findByRole('list', { name: 'Your collections' });
    expect(within(list).getByRole('link', { name: 'Demos' })).toBeTruthy();
    expect(screen.queryByText('No collections yet')).toBeNull();
  });

  it("shows the name's own error, and the server's validation message", async () => {
    const fetchMock = stubApi({
      '/api/collections': (_url: URL, init: RequestInit | undefined) =>
        init?.method === 'POST'
          ? {
              status: 400,
              body: { error: 'A collection name can be at most 100 characters.' },
            }
          : { collections: [] },
    });
    renderList();
    await screen.findByText('No collections yet');
    fireEvent.click(screen.getByRole('button', { name: 'New Collection' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText('Give the collection a name.')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'x'.repeat(120) } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'A collection name can be at most 100 characters.',
    );
    expect(screen.getByRole('dialog', { name: 'New Collection' })).toBeTruthy();
  });

  it('shows an error line when the list fails to load', async () => {
    stubApi({ '/api/collections': { status: 500, body: { error: 'Database down' } } });
    renderList();
    expect((await screen.findByRole('alert')).textContent).toBe('Database down');
  });
});

describe("CollectionsPage: 'Shared with you'", () => {
  it("lists the caller's own collections first, then the shared ones under 'Shared with you' with their role", async () => {
    stubApi({
      '/api/collections': {
        collections: [
          summary({ id: 'c2', name: 'Band picks', role: 'editor' }),
          summary({ id: 'c1', name: 'Road trip' }),
          summary({ id: 'c3', name: 'Label demos', role: 'viewer' }),
        ],
      },
    });
    renderList();
    const own = await screen.findByRole('list', { name: 'Your collections' });
    expect(
      within(own)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Road trip']);
    expect(within(own).queryByText('Owner')).toBeNull();

    const section = screen.getByRole('region', { name: 'Shared with you' });
    expect(screen.getByRole('heading', { name: 'Shared with you', level: 2 })).toBeTruthy();
    // The own list comes before the shared section.
    expect(own.compareDocumentPosition(section) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const shared = within(section).getByRole('list', { name: 'Shared with you' });
    const rows = within(shared).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('link', { name: 'Band picks' }).getAttribute('href')).toBe(
      '/collections/c2',
    );
    expect(within(rows[0]!).getByText('Editor')).toBeTruthy();
    expect(within(rows[1]!).getByRole('link', { name: 'Label demos' })).toBeTruthy();
    expect(within(rows[1]!).getByText('Viewer')).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
  });

  it("shows only 'Shared with you' when the caller has no collection of their own", async () => {
    stubApi({
      '/api/collections': {
        collections: [summary({ id: 'c2', name: 'Band picks', role: 'commenter' })],
      },
    });
    renderList();
    const section = await screen.findByRole('region', { name: 'Shared with you' });
    expect(within(section).getByText('Commenter')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Your collections' })).toBeNull();
    expect(screen.queryByText('No collections yet')).toBeNull();
  });

  it("has no 'Shared with you' without shared collections", async () => {
    stubApi({ '/api/collections': { collections: [summary({ name: 'Road trip' })] } });
    renderList();
    await screen.findByRole('list', { name: 'Your collections' });
    expect(screen.queryByRole('region', { name: 'Shared with you' })).toBeNull();
  });
});

describe('CollectionsPage covers', () => {
  it("shows each collection's cover thumbnail, and a placeholder without one", async () => {
    stubApi({
      '/api/collections': {
        collections: [
          summary({ id: 'c1', name: 'Road trip', cover_url: '/api/collections/c1/cover?v=1' }),
          summary({ id: 'c2', name: 'Demos' }),
        ],
      },
    });
    renderList();
    const list = await screen.findByRole('list', { name: 'Your collections' });
    const [withCover, without] = within(list).getAllByRole('listitem');
    if (!withCover || !without) throw new Error('two rows expected');
    expect(
      within(withCover).getByRole('img', { name: 'Cover of Road trip' }).getAttribute('src'),
    ).toBe('/api/collections/c1/cover?v=1');
    expect(within(without).queryByRole('img')).toBeNull();
    expect(without.querySelector('[aria-hidden="true"]')).not.toBeNull();
  });
});
