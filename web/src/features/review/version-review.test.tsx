import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Comment, Version } from '@takes/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { version as buildVersion } from '../projects/test-support';
import { fakePlayer } from '../player/test-support';
import {
  AudioPlayerContext,
  type AudioPlayerApi,
  type PlayerTrack,
} from '../player/use-audio-player';
import { VersionReview } from './version-review';

const version: Version = buildVersion({
  id: 'v2',
  version_number: 2,
  waveform_data: { peaks: Array.from({ length: 100 }, () => 0.5), duration: 120 },
});
const track: PlayerTrack = {
  id: 'v2',
  title: 'Mix',
  audioUrl: '/s',
  versionId: 'v2',
  duration: 120,
};

function comment(overrides: Partial<Comment>): Comment {
  return {
    id: 'c1',
    version_id: 'v2',
    user_id: 'u1',
    visitor_name: null,
    author: 'Maya',
    avatar_url: null,
    content: 'Chorus drags',
    timestamp: 62,
    end_timestamp: 78,
    version_number: 2,
    parent_id: null,
    resolved: false,
    created_at: '2026-01-01T00:00:01.000Z',
    team_only: false,
    ...overrides,
  };
}
const earlier = comment({
  id: 'c0',
  version_id: 'v1',
  version_number: 1,
  content: 'Intro too long',
  timestamp: 5,
  end_timestamp: null,
});

let fetchMock: ReturnType<typeof vi.fn<(url: string, init?: RequestInit) => Promise<Response>>>;
beforeEach(() => {
  fetchMock = vi.fn((url: string, init?: RequestInit) => {
    if ((init?.method ?? 'GET') === 'POST')
      return Promise.resolve(Response.json(comment({ id: 'c9' }), { status: 201 }));
    return Promise.resolve(
      Response.json(url.includes('include=previous') ? [earlier, comment({})] : [comment({})]),
    );
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderReview(player: AudioPlayerApi, role: 'owner' | 'viewer' = 'owner') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <AudioPlayerContext value={player}>{children}</AudioPlayerContext>
    </QueryClientProvider>
  );
  return render(<VersionReview version={version} track={track} role={role} userId="u1" />, {
    wrapper,
  });
}

const posted = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([, init]) => JSON.parse(init?.body as string) as Record<string, unknown>);

describe('VersionReview', () => {
  it('C starts a comment at the current time, Esc cancels it, and a passage is posted with its end', async () => {
    renderReview(fakePlayer(track, { currentTime: 33.33, isPlaying: true }));
    await screen.findByRole('button', { name: /Play passage 1:02–1:18, comment by Maya/ });
    fireEvent.keyDown(window, { key: 'c' });
    const text = screen.getByRole('textbox', { name: 'Comment' });
    expect(document.activeElement).toBe(text);
    expect(screen.getByTestId('comment-time').textContent).toContain('0:33');
    fireEvent.keyDown(text, { key: 'Escape' });
    expect(screen.queryByTestId('comment-time')).toBeNull();

    // A passage, as a drag on the waveform hands it over.
    fireEvent.keyDown(window, { key: 'C' });
    fireEvent.change(text, { target: { value: 'Snare too loud' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post Comment' }));
    await waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0]).toEqual({
      content: 'Snare too loud',
      timestamp: 33.3,
      parent_id: null,
      team_only: false,
    });
  });

  it('plays a range comment from the list as a passage, and opens a marker’s thread', async () => {
    const player = fakePlayer(track, { currentTime: 10 });
    renderReview(player);
    fireEvent.click(await screen.findByRole('button', { name: 'Play passage 1:02–1:18' }));
    expect(player.playTrack).toHaveBeenCalledWith(expect.objectContaining({ id: track.id }), {
      startAt: 62,
    });
    fireEvent.click(
      screen.getByRole('button', { name: /Play passage 1:02–1:18, comment by Maya/ }),
    );
    const thread = screen.getByRole('article', { name: 'Comment by Maya' });
    expect(thread.dataset.highlighted).toBe('true');
  });

  it("shows earlier versions' comments on request, marked with their version, without Reply", async () => {
    renderReview(fakePlayer(null));
    await screen.findByRole('article', { name: 'Comment by Maya' });
    expect(screen.queryByText('Intro too long')).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show comments from previous versions' }));
    const old = (await screen.findByText('Intro too long')).closest('article') as HTMLElement;
    expect(within(old).getByText('Version 1')).toBeTruthy();
    expect(within(old).queryByRole('button', { name: 'Reply' })).toBeNull();
    // Only this version's comments mark the waveform.
    expect(screen.queryByRole('button', { name: /Comment at 0:05/ })).toBeNull();
    expect(await axeViolations()).toEqual([]);
  });

  it("marks carried comments 'from Version N at m:ss' at their new time, lists removed passages, and replies on the original", async () => {
    const carried = comment({
      id: 'c3',
      version_id: 'v1',
      version_number: 1,
      content: 'Snare too loud here',
      timestamp: 18,
      end_timestamp: null,
      carried: {
        from_version_number: 1,
        from_timestamp: 20,
        from_end_timestamp: null,
        status: 'moved',
        aligned: true,
      },
    });
    const removed = comment({
      id: 'c4',
      version_id: 'v1',
      version_number: 1,
      content: 'Nice intro pad',
      timestamp: null,
      end_timestamp: null,
      carried: {
        from_version_number: 1,
        from_timestamp: 0.8,
        from_end_timestamp: null,
        status: 'removed',
        aligned: true,
      },
    });
    fetchMock.mockImplementation((url: string, init?: RequestInit) => {
      if ((init?.method ?? 'GET') === 'POST')
        return Promise.resolve(Response.json(comment({ id: 'c9' }), { status: 201 }));
      return Promise.resolve(
        Response.json(
          url.includes('include=previous')
            ? [carried, removed, comment({ carried: null })]
            : [comment({})],
        ),
      );
    });
    renderReview(fakePlayer(null));
    await screen.findByRole('article', { name: 'Comment by Maya' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show comments from previous versions' }));
    const marker = await screen.findByRole('button', {
      name: 'Comment at 0:18 by Maya, from Version 1 at 0:20: Snare too loud here',
    });
    expect(marker.dataset.carried).toBe('true');
    const moved = within(screen.getByRole('list', { name: 'Comments' }))
      .getByText('Snare too loud here')
      .closest('article') as HTMLElement;
    expect(within(moved).getByText('from Version 1 at 0:20')).toBeTruthy();
    const gone = screen.getByRole('region', { name: 'Passage removed' });
    expect(within(gone).getByText('Nice intro pad')).toBeTruthy();
    expect(within(gone).getByText('from Version 1 at 0:00')).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Comments' })).queryByText('Nice intro pad'),
    ).toBeNull();
    // A reply to a carried comment goes to the version it was made on.
    fireEvent.click(within(moved).getByRole('button', { name: 'Reply' }));
    fireEvent.change(screen.getByRole('textbox', { name: /Reply|Comment/ }), {
      target: { value: 'Turned it down' },
    });
    fireEvent.click(screen.getByRole('button', { name: /Post/ }));
    await waitFor(() => expect(posted()).toHaveLength(1));
    const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(call?.[0]).toContain('/api/versions/v1/comments');
    expect(posted()[0]).toMatchObject({ content: 'Turned it down', parent_id: 'c3' });
    expect(await axeViolations()).toEqual([]);
  });

  it('lets a Viewer read but not start comments with C', async () => {
    renderReview(fakePlayer(track, { currentTime: 5 }), 'viewer');
    await screen.findByRole('article', { name: 'Comment by Maya' });
    fireEvent.keyDown(window, { key: 'c' });
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});
