import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Comment } from '@takes/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveEvents, type EventSourceLike } from '../../lib/live-events';
import { AuthContext, type AuthContextValue } from '../auth/auth-context';
import { fakePlayer } from '../player/test-support';
import { AudioPlayerContext, type AudioPlayerApi } from '../player/use-audio-player';
import { PROCESSING_POLL_MS, type SharedVersion } from './share-api';
import { SharePage } from './share-page';

const HASH = 'AbCdEfGhIjKlMnOpQrStUv';

function shared(audioReady: boolean, status = audioReady ? 'completed' : 'processing') {
  return {
    link: {
      name: 'For the label',
      download_enabled: false,
      expires_at: null,
      allow_approval: false,
    },
    project: { name: 'Night Drive' },
    version: {
      id: 'v1',
      version_number: 2,
      message: null,
      created_at: '2026-01-01T00:00:00.000Z',
      status,
      audio_ready: audioReady,
      waveform_data: null,
      qualities: audioReady ? ['standard', 'high'] : [],
      review: { status: 'in_review', changed_at: null, changed_by: null },
    },
  } satisfies SharedVersion;
}

const visitorComment: Comment = {
  id: 'c1',
  version_id: 'v1',
  user_id: null,
  visitor_name: 'Vera',
  author: 'Vera',
  avatar_url: null,
  content: 'Love the intro',
  timestamp: null,
  end_timestamp: null,
  version_number: 1,
  parent_id: null,
  resolved: false,
  created_at: '2026-01-01T00:00:01.000Z',
  team_only: false,
};

const signedOut: AuthContextValue = {
  status: 'signed-out',
  user: null,
  refresh: () => Promise.resolve(),
  signOut: () => Promise.resolve(),
  acceptSession: () => undefined,
};

/** The live-event streams the page's tab opened (their addresses). */
let streams: string[];
const liveOptions = {
  open: (url: string): EventSourceLike => {
    streams.push(url);
    return { onopen: null, onmessage: null, onerror: null, close: () => undefined };
  },
};

function renderSharePage(player: AudioPlayerApi) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/share/:hash', element: <SharePage /> }], {
    initialEntries: [`/share/${HASH}`],
  });
  return render(
    <QueryClientProvider client={client}>
      <AuthContext value={signedOut}>
        <AudioPlayerContext value={player}>
          <LiveEvents options={liveOptions} />
          <RouterProvider router={router} />
        </AudioPlayerContext>
      </AuthContext>
    </QueryClientProvider>,
  );
}

let pages: ReturnType<typeof shared>[];
/** The link asks for a password and this browser has not given the right one yet. */
let locked: boolean;
let fetchMock: ReturnType<typeof vi.fn<(url: string, init?: RequestInit) => Promise<Response>>>;

const needsPassword = () =>
  Response.json(
    { error: 'This link needs a password', code: 'link_password_required' },
    { status: 401 },
  );

beforeEach(() => {
  localStorage.setItem('takes.visitorName', 'Vera');
  pages = [shared(true)];
  locked = false;
  streams = [];
  fetchMock = vi.fn((url: string, init?: RequestInit) => {
    if (url === `/api/links/hash/${HASH}/unlock` && init?.method === 'POST') {
      const { password } = JSON.parse(init.body as string) as { password: string };
      if (password !== 'open sesame')
        return Promise.resolve(
          Response.json({ error: 'Wrong password', code: 'link_password_wrong' }, { status: 401 }),
        );
      locked = false;
      return Promise.resolve(new Response(null, { status: 204 }));
    }
    // Every visitor route of a protected link answers 401 until it is unlocked.
    if (locked && url.startsWith(`/api/links/hash/${HASH}`))
      return Promise.resolve(needsPassword());
    if (url === `/api/links/hash/${HASH}`) {
      // Each read of the page data takes the next answer; the last one repeats.
      const next = pages.length > 1 ? pages.shift() : pages[0];
      return Promise.resolve(Response.json(next));
    }
    if (url === `/api/links/hash/${HASH}/comments`)
      return Promise.resolve(Response.json([visitorComment]));
    return Promise.resolve(
      Response.json({ error: 'Not found', code: 'not_found' }, { status: 404 }),
    );
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('SharePage', () => {
  it("offers visitors no 'Team only' checkbox", async () => {
    renderSharePage(fakePlayer());
    await screen.findByRole('article', { name: 'Comment by Vera' });
    const form = screen.getByRole('form', { name: 'Comment' });
    expect(within(form).getByRole('button', { name: 'Post Comment' })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'Team only' })).toBeNull();
    expect(screen.queryByText('Team only')).toBeNull();
  });

  it('shows the processing state, then loads the audio once the rendition exists', async () => {
    pages = [shared(false), shared(true)];
    const player = fakePlayer();
    renderSharePage(player);
    const play = await screen.findByRole<HTMLButtonElement>('button', { name: 'Play' });
    expect(play.disabled).toBe(true);
    expect(screen.getByTestId('share-audio-status').textContent).toBe(
      'This version is still being processed. It will play as soon as it is ready.',
    );
    // Nothing is loaded into the player while the link's audio would be refused.
    expect(player.playTrack).not.toHaveBeenCalled();

    await waitFor(() => expect(play.disabled).toBe(false), { timeout: PROCESSING_POLL_MS * 2 });
    expect(screen.getByTestId('share-audio-status').textContent).toBe('');
    expect(player.playTrack).toHaveBeenCalledWith(
      expect.objectContaining({ audioUrl: `/api/links/hash/${HASH}/audio` }),
      { shouldPlay: false },
    );
  }, 15_000);

  it('stops asking once processing has failed, and says so', async () => {
    pages = [shared(false, 'failed')];
    renderSharePage(fakePlayer());
    expect(
      await screen.findByText('This version could not be processed, so it cannot be played.'),
    ).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Play' }).disabled).toBe(true);
  });

  it('asks for the password of a protected link and shows the version once it is right', async () => {
    locked = true;
    const player = fakePlayer();
    renderSharePage(player);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link needs a password' }),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'Enter the password you were given with this link to open the shared version.',
      ),
    ).toBeTruthy();
    const field = screen.getByLabelText<HTMLInputElement>('Password');
    expect(field.type).toBe('password');
    await waitFor(() => expect(document.activeElement).toBe(field));
    // Nothing of the version while locked: no player, no comments, no live stream.
    expect(screen.queryByRole('button', { name: 'Play' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Comments' })).toBeNull();

    fireEvent.change(field, { target: { value: 'a guess' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong password');
    expect(document.activeElement).toBe(field);
    const unlocks = () =>
      fetchMock.mock.calls.filter(([url]) => url === `/api/links/hash/${HASH}/unlock`);
    expect(unlocks()).toHaveLength(1);
    expect(JSON.parse(unlocks()[0]?.[1]?.body as string)).toEqual({ password: 'a guess' });
    expect(screen.queryByRole('heading', { level: 1, name: 'Night Drive' })).toBeNull();

    fireEvent.change(field, { target: { value: 'open sesame' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Night Drive' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'This link needs a password' })).toBeNull();
    expect(screen.getByText('Version 2')).toBeTruthy();
    expect(await screen.findByRole('article', { name: 'Comment by Vera' })).toBeTruthy();
    expect(player.playTrack).toHaveBeenCalledWith(
      expect.objectContaining({ audioUrl: `/api/links/hash/${HASH}/audio` }),
      { shouldPlay: false },
    );
    // Only the unlocked page asked for the comments or opened the link's live stream.
    const paths = fetchMock.mock.calls.map(([url]) => url);
    const unlockedAt = paths.lastIndexOf(`/api/links/hash/${HASH}/unlock`);
    expect(paths.indexOf(`/api/links/hash/${HASH}/comments`)).toBeGreaterThan(unlockedAt);
    await waitFor(() => expect(streams).toEqual([`/api/events?link=${HASH}`]));
  });

  it('opens no live stream while the link stays locked', async () => {
    locked = true;
    renderSharePage(fakePlayer());
    await screen.findByRole('heading', { level: 1, name: 'This link needs a password' });
    // The stream's code loads asynchronously: give it the time it takes when it is asked for.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(streams).toEqual([]);
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([`/api/links/hash/${HASH}`]);
  });
});
