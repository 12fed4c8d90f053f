import type { RecentBounce } from '@takes/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { available, bounceItem, summary } from '../collections/test-support';
import { axeViolations } from '../../ui/axe-test-support';
import { fakePlayer } from '../player/test-support';
import { renderAt, repository, stubApi } from '../repos/test-support';
import { BouncesPage } from './bounces-page';
import { LOGO_URL } from './cover';

// wavesurfer.js draws on a canvas jsdom does not have.
vi.mock('./waveform-canvas', () => ({
  WaveformCanvas: () => <div data-testid="waveform-canvas" />,
}));

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function recent(overrides: Partial<RecentBounce>): RecentBounce {
  return {
    kind: 'bounce',
    id: 'b1',
    title: 'Mix',
    created_at: '2026-01-03T00:00:00.000Z',
    duration: 75,
    stream_url: '/api/repos/r1/bounces/b1/stream',
    waveform_json: { min: [-0.5], max: [0.5], duration: 75 },
    repo_id: 'r1',
    review_status: null,
    repo_name: 'Night Drive',
    branch: 'main',
    commit_sha: 'a'.repeat(40),
    cover_url: null,
    project_id: null,
    project_name: null,
    version_number: null,
    ...overrides,
  };
}

const feed = [
  recent({ id: 'b3', created_at: '2026-01-03T00:00:00.000Z', stream_url: '/s/b3' }),
  recent({ id: 'b2', created_at: '2026-01-02T00:00:00.000Z', stream_url: '/s/b2', duration: 61 }),
  recent({
    kind: 'version',
    id: 'v1',
    title: 'Demo take',
    stream_url: '/api/versions/v1/stream',
    repo_id: null,
    repo_name: null,
    project_id: 'p1',
    project_name: 'Old Project',
    version_number: 1,
    created_at: '2026-01-01T00:00:00.000Z',
  }),
];

function renderPage(player = fakePlayer()) {
  return renderAt(<BouncesPage />, { pattern: '/bounces', url: '/bounces', player });
}

describe('BouncesPage', () => {
  it('groups the feed and shows the newest of each group on a card', async () => {
    const fetchMock = stubApi({
      '/api/bounces/recent': { bounces: feed },
      '/api/audio-git/repositories': {
        data: [repository({ cover_url: '/api/repos/r1/cover?v=1' })],
      },
    });
    renderPage();
    expect(screen.getByRole('heading', { name: 'Bounces', level: 1 })).toBeTruthy();
    expect(screen.getByText('Recent audio across repos and projects')).toBeTruthy();
    expect(screen.getByText('Scanning…')).toBeTruthy();
    expect(document.title).toBe('Bounces · Takes');

    const list = await screen.findByRole('list', { name: 'Recent bounces' });
    const cards = within(list).getAllByRole('article');
    expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(['Mix', 'Demo take']);
    const [mix, demo] = cards as [HTMLElement, HTMLElement];
    expect(within(mix).getByText('1:15')).toBeTruthy();
    expect(within(mix).getByText(/Night Drive · Jan 3, 2026/)).toBeTruthy();
    expect(within(mix).getByRole('link', { name: 'Open repo' }).getAttribute('href')).toBe(
      '/repositories/r1',
    );
    expect(within(demo).getByRole('link', { name: 'Open project' }).getAttribute('href')).toBe(
      '/projects/p1',
    );
    expect(within(demo).queryByRole('button', { name: 'View versions' })).toBeNull();
    expect(within(mix).getByTestId('bounce-cover').getAttribute('src')).toBe(
      '/api/repos/r1/cover?v=1',
    );
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/bounces/recent?limit=50&all=true');
  });

  it('expands older versions per group, plays a row on click and selects it for the card', async () => {
    stubApi({
      '/api/bounces/recent': { bounces: feed },
      '/api/audio-git/repositories': { data: [] },
    });
    const player = fakePlayer();
    renderPage(player);
    const list = await screen.findByRole('list', { name: 'Recent bounces' });
    const mix = within(list).getAllByRole('article')[0] as HTMLElement;
    const toggle = within(mix).getByRole('button', { name: 'View versions' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(within(mix).getByRole('button', { name: 'Hide versions' })).toBeTruthy();

    const versions = within(mix).getByRole('list', { name: 'Versions of Mix' });
    const rows = within(versions).getAllByRole('button');
    expect(rows).toHaveLength(2);
    fireEvent.click(rows[1] as HTMLElement);
    expect(player.playTrack).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'b2', audioUrl: '/s/b2', artist: 'Night Drive' }),
    );
    // The card now shows the chosen older version.
    expect(within(mix).getAllByText('1:01')).toHaveLength(2);

    fireEvent.click(within(mix).getByRole('button', { name: 'Hide versions' }));
    expect(within(mix).queryByRole('list', { name: 'Versions of Mix' })).toBeNull();
  });

  it('seeks the global player from the waveform, starting the item first when needed', async () => {
    stubApi({
      '/api/bounces/recent': { bounces: feed },
      '/api/audio-git/repositories': { data: [] },
    });
    const player = fakePlayer();
    renderPage(player);
    const waveform = await screen.findByRole('slider', { name: 'Seek Mix' });
    vi.spyOn(waveform, 'getBoundingClientRect').mockReturnValue({
      left: 0,
      width: 300,
      top: 0,
      height: 96,
    } as DOMRect);
    fireEvent.click(waveform, { clientX: 150 });
    // The player starts it there itself, once its source has loaded.
    expect(player.playTrack).toHaveBeenCalledWith(expect.objectContaining({ id: 'b3' }), {
      startAt: 37.5,
    });
  });

  it('falls back from a broken cover to the avatar, then the logo', async () => {
    stubApi({
      '/api/bounces/recent': { bounces: [recent({ cover_url: '/broken.png' })] },
      '/api/audio-git/repositories': { status: 500, body: {} },
    });
    renderPage();
    const cover = await screen.findByTestId('bounce-cover');
    expect(cover.getAttribute('src')).toBe('/broken.png');
    fireEvent.error(cover);
    expect(screen.getByTestId('bounce-cover').getAttribute('src')).toBe(LOGO_URL);
  });

  it('shows the empty state', async () => {
    stubApi({
      '/api/bounces/recent': { bounces: [] },
      '/api/audio-git/repositories': { data: [] },
    });
    renderPage();
    expect(
      await screen.findByText('No recent bounces found. Publish a bounce from the desktop app.'),
    ).toBeTruthy();
    expect(screen.queryByText('Scanning…')).toBeNull();
  });
});

describe("BouncesPage 'Add to collection'", () => {
  function stubWithCollections(add: (body: unknown) => unknown) {
    return stubApi({
      '/api/bounces/recent': { bounces: feed },
      '/api/audio-git/repositories': { data: [] },
      '/api/collections': { collections: [summary({ id: 'c1', name: 'Favourites' })] },
      '/api/collections/c1/items': (_url: URL, init: RequestInit | undefined) =>
        add(JSON.parse(init!.body as string)),
    });
  }

  function posted(fetchMock: ReturnType<typeof stubApi>) {
    return fetchMock.mock.calls
      .filter(([url, init]) => init?.method === 'POST' && url === '/api/collections/c1/items')
      .map(([, init]) => JSON.parse(init!.body as string) as unknown);
  }

  async function openFor(title: string) {
    const list = await screen.findByRole('list', { name: 'Recent bounces' });
    const card = within(list).getByRole('article', { name: title });
    fireEvent.click(within(card).getByRole('button', { name: 'Add to collection' }));
    return { card, dialog: screen.getByRole('dialog', { name: 'Add to collection' }) };
  }

  it("adds the card's bounce, then the older version chosen in the card", async () => {
    const fetchMock = stubWithCollections(() => ({ status: 201, body: bounceItem('i1') }));
    renderPage();
    const { card, dialog } = await openFor('Mix');
    expect(within(dialog).getByText('Mix')).toBeTruthy();
    // A bounce is added as it is: no version or branch to choose.
    expect(within(dialog).queryByRole('radio')).toBeNull();
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Add to Favourites' }));
    expect((await within(dialog).findByText('Added to Favourites')).getAttribute('role')).toBe(
      'status',
    );
    expect(posted(fetchMock)).toEqual([{ bounce_id: 'b3' }]);
    expect(await axeViolations(dialog)).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));

    // The card's older version, once chosen, is the one added.
    fireEvent.click(within(card).getByRole('button', { name: 'View versions' }));
    const versions = within(card).getByRole('list', { name: 'Versions of Mix' });
    fireEvent.click(within(versions).getAllByRole('button')[1]!);
    fireEvent.click(within(card).getByRole('button', { name: 'Add to collection' }));
    const again = screen.getByRole('dialog', { name: 'Add to collection' });
    fireEvent.click(await within(again).findByRole('button', { name: 'Add to Favourites' }));
    await waitFor(() =>
      expect(posted(fetchMock)).toEqual([{ bounce_id: 'b3' }, { bounce_id: 'b2' }]),
    );
  });

  it("shows the server's message when the bounce is already in the collection", async () => {
    stubWithCollections(() => ({
      status: 409,
      body: { error: 'This bounce is already in the collection.' },
    }));
    renderPage();
    const { dialog } = await openFor('Mix');
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Add to Favourites' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This bounce is already in the collection.',
    );
    expect(within(dialog).queryByText('Added to Favourites')).toBeNull();
  });

  it('adds a project version of the feed as that version', async () => {
    const fetchMock = stubWithCollections(() => ({ status: 201, body: available('i1') }));
    renderPage();
    const { dialog } = await openFor('Demo take');
    expect(within(dialog).getByText('This version (v1)')).toBeTruthy();
    // The feed does not say the version's branch: there is no branch to follow.
    expect(within(dialog).queryByLabelText(/Follow the latest of this branch/)).toBeNull();
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Add to Favourites' }));
    expect(await within(dialog).findByText('Added to Favourites')).toBeTruthy();
    expect(posted(fetchMock)).toEqual([{ version_id: 'v1' }]);
  });
});
