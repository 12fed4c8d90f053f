import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Comment } from '@takes/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { AuthContext, type AuthContextValue } from '../auth/auth-context';
import { fakePlayer, type FakePlayerState } from '../player/test-support';
import {
  AudioPlayerContext,
  type AudioPlayerApi,
  type PlayerTrack,
} from '../player/use-audio-player';
import type { SharedCollectionPage } from './collection-share-api';
import { SharePage } from './share-page';

const HASH = 'CoLlEcTiOnKeY0123456789';
const base = `/api/collection-links/${HASH}`;

function item(
  id: string,
  position: number,
  overrides: Partial<SharedCollectionPage['items'][number]> = {},
) {
  return {
    id,
    position,
    kind: 'version' as const,
    title: `Take ${id}`,
    project_name: `Project ${id}`,
    commentable: true,
    duration: 100,
    download_enabled: false,
    stream_url: `${base}/items/${id}/stream`,
    download_url: null,
    ...overrides,
  };
}

function page(overrides: Partial<SharedCollectionPage> = {}): SharedCollectionPage {
  return {
    name: 'Road trip',
    description: 'For the van',
    cover_url: null,
    recipient_name: 'Rita Recipient',
    download_enabled: false,
    items: [
      item('i1', 0, { title: 'Opening', project_name: 'Night Drive', duration: 125.4 }),
      item('i2', 1, { title: 'Bridge', project_name: 'Night Drive', duration: 61 }),
      item('i3', 2, { title: 'Outro', project_name: 'Day Break', duration: 200 }),
    ],
    ...overrides,
  };
}

function comment(id: string, content: string, overrides: Partial<Comment> = {}): Comment {
  return {
    id,
    version_id: 'v1',
    user_id: null,
    visitor_name: 'Vera',
    author: 'Vera',
    avatar_url: null,
    content,
    timestamp: null,
    end_timestamp: null,
    version_number: 1,
    parent_id: null,
    resolved: false,
    created_at: '2026-01-01T00:00:01.000Z',
    team_only: false,
    ...overrides,
  };
}

/** The player's track for an item of the page (what isCurrent matches it by). */
function trackOf(itemId: string): PlayerTrack {
  return {
    id: `collection-share:${HASH}:${itemId}`,
    title: itemId,
    audioUrl: `${base}/items/${itemId}/stream`,
  };
}

const signedOut: AuthContextValue = {
  status: 'signed-out',
  user: null,
  refresh: () => Promise.resolve(),
  signOut: () => Promise.resolve(),
  acceptSession: () => undefined,
};

function renderSharePage(player: AudioPlayerApi = fakePlayer()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/share/:hash', element: <SharePage /> }], {
    initialEntries: [`/share/${HASH}`],
  });
  return render(
    <QueryClientProvider client={client}>
      <AuthContext value={signedOut}>
        <AudioPlayerContext value={player}>
          <RouterProvider router={router} />
        </AudioPlayerContext>
      </AuthContext>
    </QueryClientProvider>,
  );
}

function playing(itemId: string, state: FakePlayerState = {}) {
  return fakePlayer(trackOf(itemId), { isPlaying: true, ...state });
}

interface Sent {
  url: string;
  method: string;
  body: unknown;
}

let locked: boolean;
let unlockAnswer: Response | null;
let collection: SharedCollectionPage;
let versionLookup: () => Response;
let openAnswer: (() => Response) | null;
let itemComments: Record<string, Comment[]>;
let sent: Sent[];

beforeEach(() => {
  locked = false;
  unlockAnswer = null;
  collection = page();
  versionLookup = () =>
    Response.json(
      { error: 'Link not found', code: 'link_is_collection', details: { kind: 'collection' } },
      { status: 404 },
    );
  openAnswer = null;
  itemComments = { i1: [comment('c1', 'Love the opening')], i2: [comment('c2', 'Bridge is long')] };
  sent = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      sent.push({ url, method, body });
      if (url === `/api/links/hash/${HASH}`) return Promise.resolve(versionLookup());
      if (url === base && method === 'GET') {
        if (openAnswer) return Promise.resolve(openAnswer());
        return Promise.resolve(
          locked
            ? Response.json(
                { error: 'This link needs a password', code: 'link_password_required' },
                { status: 401 },
              )
            : Response.json(collection),
        );
      }
      if (url === `${base}/unlock` && method === 'POST') {
        if (unlockAnswer) return Promise.resolve(unlockAnswer);
        if ((body as { password: string }).password === 'open sesame') {
          locked = false;
          return Promise.resolve(new Response(null, { status: 204 }));
        }
        return Promise.resolve(
          Response.json({ error: 'Wrong password', code: 'link_password_wrong' }, { status: 401 }),
        );
      }
      const comments = /\/items\/([^/]+)\/comments$/.exec(url);
      if (comments?.[1] && url.startsWith(base)) {
        const itemId = comments[1];
        if (method === 'GET') return Promise.resolve(Response.json(itemComments[itemId] ?? []));
        const posted = comment('new', (body as { content: string }).content, {
          visitor_name: (body as { visitor_name: string }).visitor_name,
          author: (body as { visitor_name: string }).visitor_name,
          timestamp: (body as { timestamp: number | null }).timestamp,
        });
        itemComments[itemId] = [...(itemComments[itemId] ?? []), posted];
        return Promise.resolve(Response.json(posted, { status: 201 }));
      }
      if (url.startsWith(`${base}/items/`) && url.endsWith('/receipts')) {
        return Promise.resolve(new Response(null, { status: 204 }));
      }
      return Promise.resolve(
        Response.json({ error: 'Not found', code: 'not_found' }, { status: 404 }),
      );
    }),
  );
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

function receipts(): { itemId: string | undefined; event: unknown }[] {
  return sent
    .filter((request) => request.url.endsWith('/receipts'))
    .map((request) => ({
      itemId: /\/items\/([^/]+)\/receipts$/.exec(request.url)?.[1],
      event: (request.body as { event: unknown }).event,
    }));
}

function rows(): HTMLElement[] {
  return within(screen.getByRole('list', { name: 'Items' })).getAllByRole('listitem');
}

describe('the collection share page', () => {
  it("switches from the version view on the lookup's collection answer and shows the collection", async () => {
    localStorage.setItem('takes.visitorName', 'Vera');
    renderSharePage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Road trip' })).toBeTruthy();
    expect(screen.getByText('For the van')).toBeTruthy();
    // 125.4 + 61 + 200 seconds.
    expect(screen.getByTestId('collection-total').textContent).toBe('6:26');
    const [first, second, third] = rows();
    if (!first || !second || !third) throw new Error('three rows expected');
    expect(first.textContent).toContain('1');
    expect(first.textContent).toContain('Opening');
    expect(first.textContent).toContain('Night Drive');
    expect(first.textContent).toContain('2:05');
    expect(second.textContent).toContain('1:01');
    expect(third.textContent).toContain('Day Break');
    expect(third.textContent).toContain('3:20');
    expect(within(first).getByRole('button', { name: 'Play “Opening”' })).toBeTruthy();
    // Nothing plays yet: the first item's comments are shown.
    expect(await screen.findByText('Love the opening')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Road trip'));
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe(
      'noindex',
    );
    // Everything the page asked for is on this site.
    expect(sent.every((request) => request.url.startsWith('/api/'))).toBe(true);
    expect(await axeViolations()).toEqual([]);
  });

  it('keeps the version view for any other 404, and shows expired and unknown collection links like it', async () => {
    versionLookup = () =>
      Response.json({ error: 'Link not found', code: 'link_not_found' }, { status: 404 });
    renderSharePage();
    expect((await screen.findByRole('alert')).textContent).toBe('Link not found');
    expect(sent.some((request) => request.url === base)).toBe(false);
    cleanup();

    versionLookup = () =>
      Response.json(
        { error: 'Link not found', code: 'link_is_collection', details: { kind: 'collection' } },
        { status: 404 },
      );
    openAnswer = () =>
      Response.json({ error: 'This link has expired', code: 'link_expired' }, { status: 410 });
    renderSharePage();
    expect((await screen.findByRole('alert')).textContent).toBe('This link has expired');
    expect(screen.getByRole('heading', { level: 1, name: 'Shared collection' })).toBeTruthy();
    cleanup();

    openAnswer = () =>
      Response.json({ error: 'Link not found', code: 'link_not_found' }, { status: 404 });
    renderSharePage();
    expect((await screen.findByRole('alert')).textContent).toBe('Link not found');
  });

  it('asks for the password of a locked link: wrong, too many tries, then right', async () => {
    locked = true;
    renderSharePage();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link needs a password' }),
    ).toBeTruthy();
    const field = screen.getByLabelText<HTMLInputElement>('Password');
    expect(field.type).toBe('password');
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(screen.queryByRole('list', { name: 'Items' })).toBeNull();
    expect(await axeViolations()).toEqual([]);

    fireEvent.change(field, { target: { value: 'guess' } });
    // A pointer click moves the focus to the button; the failure brings it back to the field.
    const unlock = screen.getByRole('button', { name: 'Unlock' });
    unlock.focus();
    fireEvent.click(unlock);
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong password');
    expect(document.activeElement).toBe(field);
    expect(sent.find((request) => request.url === `${base}/unlock`)?.body).toEqual({
      password: 'guess',
    });

    unlockAnswer = Response.json(
      { error: 'Too many attempts. Please wait a moment and try again.' },
      { status: 429 },
    );
    fireEvent.change(field, { target: { value: 'guess again' } });
    unlock.focus();
    fireEvent.click(unlock);
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'Too many attempts. Please wait a moment and try again.',
      ),
    );
    expect(document.activeElement).toBe(field);

    unlockAnswer = null;
    fireEvent.change(field, { target: { value: 'open sesame' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Road trip' })).toBeTruthy();
    expect(rows()).toHaveLength(3);
  });

  it("plays the collection in order with 'Play all', or from an item with its Play", async () => {
    const player = fakePlayer();
    renderSharePage(player);
    fireEvent.click(await screen.findByRole('button', { name: 'Play all' }));
    expect(player.playQueue).toHaveBeenCalledTimes(1);
    const [tracks, start] = vi.mocked(player.playQueue).mock.calls[0] ?? [];
    expect(start).toBe(0);
    expect(tracks?.map((track) => track.audioUrl)).toEqual([
      `${base}/items/i1/stream`,
      `${base}/items/i2/stream`,
      `${base}/items/i3/stream`,
    ]);
    expect(tracks?.map((track) => track.title)).toEqual(['Opening', 'Bridge', 'Outro']);
    // They stream with the link's cookie: no session check.
    expect(tracks?.every((track) => track.bypassAuth === true && !track.versionId)).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Play “Bridge”' }));
    expect(player.playQueue).toHaveBeenLastCalledWith(tracks, 1);
  });

  it("plays from a comment's time: the list from that item, or the playing item jumps there", async () => {
    itemComments.i2 = [comment('c2', 'Bridge is long', { timestamp: 30 })];
    const idle = fakePlayer();
    renderSharePage(idle);
    fireEvent.click(await screen.findByRole('button', { name: 'Comments on “Bridge”' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Play from 0:30' }));
    const [tracks, start, options] = vi.mocked(idle.playQueue).mock.calls[0] ?? [];
    expect(tracks?.map((track) => track.title)).toEqual(['Opening', 'Bridge', 'Outro']);
    expect([start, options]).toEqual([1, { startAt: 30 }]);
    cleanup();

    const player = playing('i2');
    renderSharePage(player);
    fireEvent.click(await screen.findByRole('button', { name: 'Play from 0:30' }));
    expect(player.playTrack).toHaveBeenCalledWith(
      expect.objectContaining({ id: trackOf('i2').id }),
      { startAt: 30 },
    );
    expect(player.playQueue).not.toHaveBeenCalled();
  });

  it('marks the playing item, offers the transport, and reports the play start', async () => {
    const player = playing('i2', { currentTime: 12, duration: 61 });
    renderSharePage(player);
    await screen.findByRole('heading', { level: 1, name: 'Road trip' });
    const [first, second] = rows();
    expect(first?.getAttribute('aria-current')).toBeNull();
    expect(second?.getAttribute('aria-current')).toBe('true');
    expect(within(second!).getByRole('button', { name: 'Pause “Bridge”' })).toBeTruthy();
    fireEvent.click(within(second!).getByRole('button', { name: 'Pause “Bridge”' }));
    expect(player.pause).toHaveBeenCalled();

    const now = screen.getByRole('region', { name: 'Now playing' });
    expect(now.textContent).toContain('Bridge');
    expect(now.textContent).toContain('0:12 / 1:01');
    fireEvent.click(within(now).getByRole('button', { name: 'Pause' }));
    expect(player.togglePlay).toHaveBeenCalled();

    // The playing item's comments are the ones shown.
    expect(await screen.findByText('Bridge is long')).toBeTruthy();
    expect(screen.queryByText('Love the opening')).toBeNull();
    await waitFor(() => expect(receipts()).toEqual([{ itemId: 'i2', event: 'play' }]));
  });

  it("lists the chosen item's comments and posts one with the visitor's name and the player's time", async () => {
    // No name on this device yet: the link's recipient name is offered.
    renderSharePage(playing('i1', { currentTime: 42.34 }));
    expect(await screen.findByText('Love the opening')).toBeTruthy();
    const nameField = await screen.findByLabelText<HTMLInputElement>('Your name');
    expect(nameField.value).toBe('Rita Recipient');
    fireEvent.change(nameField, { target: { value: 'Rita' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set Name' }));

    fireEvent.click(await screen.findByRole('button', { name: 'Attach current time' }));
    expect(screen.getByTestId('comment-time').textContent).toContain('0:42');
    fireEvent.change(screen.getByRole('textbox', { name: 'Comment' }), {
      target: { value: 'The drop at 0:42' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Post Comment' }));
    await waitFor(() =>
      expect(
        sent.find((request) => request.method === 'POST' && request.url.endsWith('/comments')),
      ).toEqual({
        url: `${base}/items/i1/comments`,
        method: 'POST',
        body: {
          content: 'The drop at 0:42',
          timestamp: 42.3,
          parent_id: null,
          visitor_name: 'Rita',
        },
      }),
    );
    expect(await screen.findByText('The drop at 0:42')).toBeTruthy();
    expect(localStorage.getItem('takes.visitorName')).toBe('Rita');

    // Another item's comments, picked with its Comments button.
    fireEvent.click(screen.getByRole('button', { name: 'Comments on “Bridge”' }));
    expect(await screen.findByText('Bridge is long')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Comments on “Bridge”' })).toBeTruthy();
    expect(screen.queryByText('Love the opening')).toBeNull();
    // Bridge is not playing: no time can be attached to a comment on it.
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Attach current time' }).disabled,
    ).toBe(true);
  });

  it('offers Download only where the link allows it, and only from this site', async () => {
    localStorage.setItem('takes.visitorName', 'Vera');
    collection = page({
      download_enabled: true,
      items: [
        item('i1', 0, { title: 'Opening', download_url: `${base}/items/i1/download` }),
        item('i2', 1, { title: 'Bridge' }),
        item('i3', 2, { title: 'Elsewhere', download_url: 'https://elsewhere.example/file.wav' }),
      ],
    });
    renderSharePage();
    await screen.findByRole('heading', { level: 1, name: 'Road trip' });
    const [first, second, third] = rows();
    const link = within(first!).getByRole<HTMLAnchorElement>('link', {
      name: 'Download “Opening”',
    });
    expect(link.getAttribute('href')).toBe(`${base}/items/i1/download`);
    expect(link.hasAttribute('download')).toBe(true);
    expect(within(second!).queryByRole('link', { name: /Download/ })).toBeNull();
    expect(within(third!).queryByRole('link', { name: /Download/ })).toBeNull();
    // The download route counts the download itself: the page sends no receipt of its own.
    link.addEventListener('click', (event) => event.preventDefault());
    fireEvent.click(link);
    expect(receipts()).toEqual([]);
  });
});

describe("the collection share page's bounces", () => {
  function withBounce(first: 'bounce' | 'version' = 'version') {
    const bounce = item('i9', 0, {
      kind: 'bounce',
      title: 'Chorus bounce',
      project_name: 'Harbour Lights',
      commentable: false,
      duration: 30,
      download_enabled: true,
      download_url: `${base}/items/i9/download`,
    });
    const opening = item('i1', 1, { title: 'Opening', project_name: 'Night Drive' });
    return page({
      download_enabled: true,
      items: first === 'bounce' ? [bounce, opening] : [opening, { ...bounce, position: 1 }],
    });
  }

  function commentRequests(itemId: string) {
    return sent.filter((request) => request.url === `${base}/items/${itemId}/comments`);
  }

  it('offers no comments on a bounce, and still does on a version', async () => {
    localStorage.setItem('takes.visitorName', 'Vera');
    collection = withBounce('bounce');
    renderSharePage();
    await screen.findByRole('heading', { level: 1, name: 'Road trip' });
    const [bounce, version] = rows();
    // The bounce plays and downloads like a version, with its repository's name, but has no
    // Comments button.
    expect(bounce!.textContent).toContain('Chorus bounce');
    expect(bounce!.textContent).toContain('Harbour Lights');
    expect(within(bounce!).getByRole('button', { name: 'Play “Chorus bounce”' })).toBeTruthy();
    expect(within(bounce!).getByRole('link', { name: 'Download “Chorus bounce”' })).toBeTruthy();
    expect(within(bounce!).queryByRole('button', { name: /Comments/ })).toBeNull();
    expect(within(version!).getByRole('button', { name: 'Comments on “Opening”' })).toBeTruthy();

    // Nothing plays: the comments shown are the first version's, not the bounce's.
    expect(await screen.findByText('Love the opening')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Comments on “Opening”' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Comment' })).toBeTruthy();
    expect(commentRequests('i9')).toEqual([]);
    expect(await axeViolations()).toEqual([]);
  });

  it('shows no comment form or list while a bounce plays, and asks the server for none', async () => {
    localStorage.setItem('takes.visitorName', 'Vera');
    collection = withBounce();
    renderSharePage(playing('i9', { currentTime: 3, duration: 30 }));
    await screen.findByRole('heading', { level: 1, name: 'Road trip' });
    const now = screen.getByRole('region', { name: 'Now playing' });
    expect(now.textContent).toContain('Chorus bounce');
    expect(now.textContent).toContain('Harbour Lights');
    expect(screen.getByText('A bounce takes no comments.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: /Comments on/ })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Comment' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Post Comment' })).toBeNull();
    // The version's Comments button still controls an element on the page.
    expect(await axeViolations()).toEqual([]);
    // Its play is reported like any item's.
    await waitFor(() => expect(receipts()).toEqual([{ itemId: 'i9', event: 'play' }]));
    expect(commentRequests('i9')).toEqual([]);

    // The version's Comments button still shows its comments and the form.
    fireEvent.click(screen.getByRole('button', { name: 'Comments on “Opening”' }));
    expect(await screen.findByText('Love the opening')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Comment' })).toBeTruthy();
    expect(commentRequests('i9')).toEqual([]);
  });

  it("plays a bounce in 'Play all' like any item", async () => {
    const player = fakePlayer();
    collection = withBounce();
    renderSharePage(player);
    fireEvent.click(await screen.findByRole('button', { name: 'Play all' }));
    const [tracks, start] = vi.mocked(player.playQueue).mock.calls[0] ?? [];
    expect(start).toBe(0);
    expect(tracks?.map((track) => [track.title, track.artist, track.audioUrl])).toEqual([
      ['Opening', 'Night Drive', `${base}/items/i1/stream`],
      ['Chorus bounce', 'Harbour Lights', `${base}/items/i9/stream`],
    ]);
  });
});

describe("the collection share page's cover", () => {
  it("shows the cover beside the name, named by the collection's name", async () => {
    collection = page({ cover_url: `${base}/cover?v=abc` });
    renderSharePage();
    const heading = await screen.findByRole('heading', { level: 1, name: 'Road trip' });
    const cover = screen.getByRole('img', { name: 'Road trip' });
    expect(cover.getAttribute('src')).toBe(`${base}/cover?v=abc`);
    // In the header, beside the name.
    expect(cover.parentElement?.contains(heading)).toBe(true);
    expect(await axeViolations()).toEqual([]);
  });

  it('shows no cover when there is none, or when its URL would leave the site', async () => {
    renderSharePage();
    await screen.findByRole('heading', { level: 1, name: 'Road trip' });
    expect(screen.queryByTestId('shared-collection-cover')).toBeNull();
    cleanup();

    for (const url of ['https://evil.example/cover.png', '//evil.example/cover.png']) {
      collection = page({ cover_url: url });
      renderSharePage();
      await screen.findByRole('heading', { level: 1, name: 'Road trip' });
      expect(screen.queryByRole('img', { name: 'Road trip' })).toBeNull();
      expect(document.querySelector('img[src*="evil.example"]')).toBeNull();
      cleanup();
    }
  });
});
