import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Comment } from '@takes/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakePlayer } from '../player/test-support';
import {
  AudioPlayerContext,
  type AudioPlayerApi,
  type PlayerTrack,
} from '../player/use-audio-player';
import { VersionComments } from './version-comments';

const track: PlayerTrack = {
  id: 'v1',
  title: 'Take',
  audioUrl: '/api/versions/v1/stream',
  versionId: 'v1',
  duration: 60,
};

function comment(overrides: Partial<Comment>): Comment {
  return {
    id: 'c1',
    version_id: 'v1',
    user_id: 'u1',
    visitor_name: null,
    author: 'Olive Owner',
    avatar_url: null,
    content: 'Kick is muddy',
    timestamp: 75,
    end_timestamp: null,
    version_number: 1,
    parent_id: null,
    resolved: false,
    created_at: '2026-01-01T00:00:01.000Z',
    team_only: false,
    ...overrides,
  };
}

const comments = [
  comment({}),
  comment({
    id: 'c2',
    author: 'Vera',
    visitor_name: 'Vera',
    user_id: null,
    content: '<b>not bold</b>',
    timestamp: null,
    parent_id: 'c1',
    created_at: '2026-01-01T00:00:02.000Z',
  }),
];

/** The player with this version loaded (`current`) or another one, 12.34 s in. */
function playerOn(current: boolean): AudioPlayerApi {
  return fakePlayer(current ? track : null, { currentTime: 12.34 });
}

function renderComments(player: AudioPlayerApi) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <AudioPlayerContext value={player}>{children}</AudioPlayerContext>
    </QueryClientProvider>
  );
  return render(<VersionComments versionId="v1" track={track} role="owner" userId="u1" />, {
    wrapper,
  });
}

let fetchMock: ReturnType<typeof vi.fn<(url: string, init?: RequestInit) => Promise<Response>>>;

beforeEach(() => {
  fetchMock = vi.fn((url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (method === 'GET') return Promise.resolve(Response.json(comments));
    if (method === 'DELETE') return Promise.resolve(new Response(null, { status: 204 }));
    return Promise.resolve(Response.json(comments[0], { status: method === 'POST' ? 201 : 200 }));
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function calls(method: string) {
  return fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === method);
}

describe('VersionComments', () => {
  it('lists threads as text and filters resolved comments on request', async () => {
    renderComments(playerOn(true));
    const owner = await screen.findByRole('article', { name: 'Comment by Olive Owner' });
    expect(within(owner).getByRole('button', { name: 'Play from 1:15' })).toBeTruthy();
    const replies = screen.getByRole('list', { name: 'Replies to Olive Owner' });
    expect(within(replies).getByText('<b>not bold</b>')).toBeTruthy();
    expect(document.querySelector('b')).toBeNull();
    expect(screen.getByRole('button', { name: 'Comment at 1:15 by Olive Owner' })).toBeTruthy();
    expect(calls('GET')[0]?.[0]).toBe('/api/versions/v1/comments?resolved=include');

    fireEvent.click(screen.getByRole('checkbox', { name: 'Show resolved' }));
    await waitFor(() =>
      expect(calls('GET').map(([url]) => url)).toContain(
        '/api/versions/v1/comments?resolved=exclude',
      ),
    );
  });

  it("plays the version from the comment's time, whether it is the current track or not", async () => {
    const playing = playerOn(true);
    renderComments(playing);
    fireEvent.click(await screen.findByRole('button', { name: 'Play from 1:15' }));
    expect(playing.playTrack).toHaveBeenCalledWith(track, { startAt: 75 });
    cleanup();

    const idle = playerOn(false);
    renderComments(idle);
    fireEvent.click(await screen.findByRole('button', { name: 'Play from 1:15' }));
    // The player starts it there itself, once its source has loaded: no timer, no second seek.
    expect(idle.playTrack).toHaveBeenCalledWith(track, { startAt: 75 });
    expect(idle.seek).not.toHaveBeenCalled();
  });

  it('posts a reply with the attached time, which can be removed first', async () => {
    renderComments(playerOn(true));
    fireEvent.click((await screen.findAllByRole('button', { name: 'Reply' }))[0] as HTMLElement);
    const text = screen.getByRole('textbox', { name: 'Reply to Olive Owner' });
    const post = screen.getByRole('button', { name: 'Post Reply' });
    expect((post as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(text, { target: { value: '  Fixed in v2  ' } });
    expect(screen.getByText('15/5000')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Attach current time' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove time 0:12' }));
    fireEvent.click(screen.getByRole('button', { name: 'Attach current time' }));
    fireEvent.click(post);

    await waitFor(() => expect(calls('POST')).toHaveLength(1));
    const [url, init] = calls('POST')[0] ?? [];
    expect(url).toBe('/api/versions/v1/comments');
    expect(JSON.parse(init?.body as string)).toEqual({
      content: 'Fixed in v2',
      timestamp: 12.3,
      parent_id: 'c1',
      team_only: false,
    });
  });

  it("marks team-only comments with a 'Team only' badge and posts one when asked", async () => {
    const secret = comment({
      id: 'c3',
      content: 'Label wants it louder, do not tell them yet',
      timestamp: null,
      team_only: true,
      created_at: '2026-01-01T00:00:03.000Z',
    });
    fetchMock.mockImplementation((_url: string, init?: RequestInit) =>
      Promise.resolve(
        (init?.method ?? 'GET') === 'GET'
          ? Response.json([...comments, secret])
          : Response.json(secret, { status: 201 }),
      ),
    );
    renderComments(playerOn(true));
    const articles = await screen.findAllByRole('article');
    const badged = articles.filter((a) => within(a).queryByText('Team only') !== null);
    expect(badged).toHaveLength(1);
    expect(within(badged[0] as HTMLElement).getByText(secret.content)).toBeTruthy();

    const form = screen.getByRole('form', { name: 'Comment' });
    const teamOnly = within(form).getByRole<HTMLInputElement>('checkbox', { name: 'Team only' });
    expect(teamOnly.checked).toBe(false);
    fireEvent.click(teamOnly);
    fireEvent.change(within(form).getByRole('textbox', { name: 'Comment' }), {
      target: { value: 'Bounce a louder master' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Post Comment' }));
    await waitFor(() => expect(calls('POST')).toHaveLength(1));
    expect(JSON.parse(calls('POST')[0]?.[1]?.body as string)).toEqual({
      content: 'Bounce a louder master',
      timestamp: null,
      parent_id: null,
      team_only: true,
    });
    // The next comment starts public again.
    await waitFor(() => expect(teamOnly.checked).toBe(false));
  });

  it('a reply to a team-only comment is team-only, and the box says so', async () => {
    fetchMock.mockImplementation((_url: string, init?: RequestInit) =>
      Promise.resolve(
        (init?.method ?? 'GET') === 'GET'
          ? Response.json([comment({ team_only: true })])
          : Response.json(comment({ id: 'c9', team_only: true }), { status: 201 }),
      ),
    );
    renderComments(playerOn(true));
    fireEvent.click(await screen.findByRole('button', { name: 'Reply' }));
    const form = screen.getByRole('form', { name: 'Reply to Olive Owner' });
    const teamOnly = within(form).getByRole<HTMLInputElement>('checkbox', { name: 'Team only' });
    expect(teamOnly.checked).toBe(true);
    expect(teamOnly.disabled).toBe(true);
    fireEvent.change(within(form).getByRole('textbox', { name: 'Reply to Olive Owner' }), {
      target: { value: 'Agreed' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Post Reply' }));
    await waitFor(() => expect(calls('POST')).toHaveLength(1));
    expect(JSON.parse(calls('POST')[0]?.[1]?.body as string)).toMatchObject({
      parent_id: 'c1',
      team_only: true,
    });
  });

  it('resolves, and deletes only after confirming', async () => {
    renderComments(playerOn(true));
    const owner = await screen.findByRole('article', { name: 'Comment by Olive Owner' });
    fireEvent.click(within(owner).getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(calls('PATCH')).toHaveLength(1));
    expect(calls('PATCH')[0]?.[0]).toBe('/api/comments/c1');
    expect(JSON.parse(calls('PATCH')[0]?.[1]?.body as string)).toEqual({ resolved: true });

    fireEvent.click(within(owner).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete comment' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls('DELETE')).toHaveLength(0);

    fireEvent.click(within(owner).getByRole('button', { name: 'Delete' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Delete comment' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(calls('DELETE')).toHaveLength(1));
    expect(calls('DELETE')[0]?.[0]).toBe('/api/comments/c1');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("shows 'Error loading comments: {message}'", async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(Response.json({ error: 'Version not found' }, { status: 404 })),
    );
    renderComments(playerOn(true));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Error loading comments: Version not found',
    );
  });
});
