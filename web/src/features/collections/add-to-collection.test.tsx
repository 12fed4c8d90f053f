import type { CollectionSummary } from '@takes/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { ProjectPage } from '../projects/project-page';
import { branch, project } from '../projects/test-support';
import { RepoPage } from '../repos/repo-page';
import { bounce, renderAt, repository, stubApi } from '../repos/test-support';
import { AddToCollectionButton } from './add-to-collection';
import { available, bounceItem, collection, summary } from './test-support';

// wavesurfer.js draws on a canvas jsdom does not have.
vi.mock('../bounces/waveform-canvas', () => ({
  WaveformCanvas: () => <div data-testid="waveform-canvas" />,
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function stubProjectAndCollections(
  add: (body: unknown) => unknown = () => ({ status: 201, body: available('i1') }),
  collections: CollectionSummary[] = [summary({ id: 'c1', name: 'Favourites' })],
) {
  return stubApi({
    '/api/projects/p1': project(),
    '/api/projects/p1/branches': [branch()],
    '/api/collections': (_url: URL, init: RequestInit | undefined) =>
      init?.method === 'POST'
        ? { status: 201, body: collection([], { id: 'c2', name: 'Fresh' }) }
        : { collections },
    '/api/collections/c1/items': (_url: URL, init: RequestInit | undefined) =>
      add(JSON.parse(init!.body as string)),
    '/api/collections/c2/items': { status: 201, body: available('i2') },
    '/api/collections/c3/items': { status: 201, body: available('i3') },
  });
}

function posts(fetchMock: ReturnType<typeof stubApi>, path: string) {
  return fetchMock.mock.calls
    .filter(([url, init]) => init?.method === 'POST' && url.endsWith(path))
    .map(([, init]) => JSON.parse(init!.body as string) as unknown);
}

async function openDialog() {
  renderAt(<ProjectPage />, { pattern: '/projects/:projectId', url: '/projects/p1' });
  const card = await screen.findByRole('article', { name: 'Selected version' });
  fireEvent.click(within(card).getByRole('button', { name: 'Add to collection' }));
  return screen.getByRole('dialog', { name: 'Add to collection' });
}

describe('Add to collection on the project page', () => {
  it('adds the version, then a follow of its branch', async () => {
    const fetchMock = stubProjectAndCollections();
    const dialog = await openDialog();
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Add to Favourites' }));
    expect((await within(dialog).findByText('Added to Favourites')).getAttribute('role')).toBe(
      'status',
    );

    fireEvent.click(within(dialog).getByLabelText(/Follow the latest of this branch/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add to Favourites' }));
    await waitFor(() =>
      expect(posts(fetchMock, '/api/collections/c1/items')).toEqual([
        { version_id: 'v1' },
        { branch_id: 'b1' },
      ]),
    );
  });

  it("shows the server's message for a duplicate", async () => {
    stubProjectAndCollections(() => ({
      status: 409,
      body: { error: 'This version is already in the collection.' },
    }));
    const dialog = await openDialog();
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Add to Favourites' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This version is already in the collection.',
    );
    expect(await axeViolations(dialog)).toEqual([]);
  });

  it('creates a new collection inline and adds the version to it', async () => {
    const fetchMock = stubProjectAndCollections();
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('New collection name'), {
      target: { value: 'Fresh' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'New Collection' }));
    expect((await within(dialog).findByText('Added to Fresh')).getAttribute('role')).toBe('status');
    expect(posts(fetchMock, '/api/collections')).toEqual([{ name: 'Fresh', description: null }]);
    expect(posts(fetchMock, '/api/collections/c2/items')).toEqual([{ version_id: 'v1' }]);
  });
});

describe('Add to collection, by role', () => {
  it('offers only the collections the caller may add to: their own and those they are an editor of', async () => {
    const fetchMock = stubProjectAndCollections(undefined, [
      summary({ id: 'c1', name: 'Favourites' }),
      summary({ id: 'c3', name: 'Band picks', role: 'editor' }),
      summary({ id: 'c4', name: 'Label demos', role: 'viewer' }),
      summary({ id: 'c5', name: 'Notes', role: 'commenter' }),
    ]);
    const dialog = await openDialog();
    const list = await within(dialog).findByRole('list', { name: 'Your collections' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Add to Favourites', 'Add to Band picks']);
    expect(within(list).getByText('Editor')).toBeTruthy();
    expect(within(dialog).queryByText('Label demos')).toBeNull();
    expect(within(dialog).queryByText('Notes')).toBeNull();

    fireEvent.click(within(list).getByRole('button', { name: 'Add to Band picks' }));
    expect(await within(dialog).findByText('Added to Band picks')).toBeTruthy();
    expect(posts(fetchMock, '/api/collections/c3/items')).toEqual([{ version_id: 'v1' }]);
    expect(await axeViolations(dialog)).toEqual([]);
  });

  it('says there is no collection when the caller may add to none', async () => {
    stubProjectAndCollections(undefined, [
      summary({ id: 'c4', name: 'Label demos', role: 'viewer' }),
    ]);
    const dialog = await openDialog();
    expect(await within(dialog).findByText('No collections yet')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Add to Label demos' })).toBeNull();
    // A new collection of their own can still be made here.
    expect(within(dialog).getByRole('button', { name: 'New Collection' })).toBeTruthy();
  });
});

describe('Add to collection with a bounce target', () => {
  function stubCollections(add: (body: unknown) => unknown) {
    return stubApi({
      '/api/collections': (_url: URL, init: RequestInit | undefined) =>
        init?.method === 'POST'
          ? { status: 201, body: collection([], { id: 'c2', name: 'Fresh' }) }
          : { collections: [summary({ id: 'c1', name: 'Favourites' })] },
      '/api/collections/c1/items': (_url: URL, init: RequestInit | undefined) =>
        add(JSON.parse(init!.body as string)),
      '/api/collections/c2/items': { status: 201, body: bounceItem('i2') },
    });
  }

  function openForBounce() {
    renderAt(
      <AddToCollectionButton target={{ kind: 'bounce', bounceId: 'bn1', title: 'Chorus' }} />,
      { pattern: '/', url: '/' },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add to collection' }));
    return screen.getByRole('dialog', { name: 'Add to collection' });
  }

  it('names the bounce, offers no version or branch, and posts its bounce_id', async () => {
    const fetchMock = stubCollections(() => ({ status: 201, body: bounceItem('i1') }));
    const dialog = openForBounce();
    expect(within(dialog).getByText(/This bounce:/).textContent).toBe('This bounce: Chorus');
    expect(within(dialog).queryByRole('radio')).toBeNull();
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Add to Favourites' }));
    expect(await within(dialog).findByText('Added to Favourites')).toBeTruthy();
    expect(posts(fetchMock, '/api/collections/c1/items')).toEqual([{ bounce_id: 'bn1' }]);
    expect(await axeViolations(dialog)).toEqual([]);
  });

  it('creates a new collection inline and adds the bounce to it', async () => {
    const fetchMock = stubCollections(() => ({ status: 201, body: bounceItem('i1') }));
    const dialog = openForBounce();
    fireEvent.change(within(dialog).getByLabelText('New collection name'), {
      target: { value: 'Fresh' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'New Collection' }));
    expect(await within(dialog).findByText('Added to Fresh')).toBeTruthy();
    expect(posts(fetchMock, '/api/collections/c2/items')).toEqual([{ bounce_id: 'bn1' }]);
  });

  it("shows the server's message for a bounce already in the collection, or one not found", async () => {
    let answer = { status: 409, body: { error: 'This bounce is already in the collection.' } };
    stubCollections(() => answer);
    const dialog = openForBounce();
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Add to Favourites' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This bounce is already in the collection.',
    );
    answer = { status: 404, body: { error: 'Bounce not found' } };
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add to Favourites' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toBe('Bounce not found'),
    );
  });

  it("adds the repository page's previewed bounce", async () => {
    const fetchMock = stubApi({
      '/api/repos/r1': { repo: repository() },
      '/api/repos/r1/branches': {
        branches: [
          {
            name: 'main',
            is_default: true,
            head_sha: 'a'.repeat(40),
            commit_count: 1,
            bounce_count: 1,
            created_at: '2026-01-01T00:00:00.000Z',
            updated_at: '2026-01-01T00:00:00.000Z',
          },
        ],
      },
      '/api/repos/r1/commits': { commits: [] },
      '/api/repos/r1/bounces': { bounces: [bounce({ id: 'b1' })] },
      '/api/repos/r1/activity': { items: [], next_cursor: null },
      '/api/collections': { collections: [summary({ id: 'c1', name: 'Favourites' })] },
      '/api/collections/c1/items': { status: 201, body: bounceItem('i1') },
    });
    renderAt(<RepoPage />, { pattern: '/repositories/:repoId', url: '/repositories/r1' });
    await screen.findByRole('region', { name: 'Now previewing' });
    fireEvent.click(screen.getByRole('button', { name: 'Add to collection' }));
    const dialog = screen.getByRole('dialog', { name: 'Add to collection' });
    expect(within(dialog).getByText(/This bounce:/).textContent).toBe('This bounce: Rough mix');
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Add to Favourites' }));
    expect(await within(dialog).findByText('Added to Favourites')).toBeTruthy();
    expect(posts(fetchMock, '/api/collections/c1/items')).toEqual([{ bounce_id: 'b1' }]);
  });
});
