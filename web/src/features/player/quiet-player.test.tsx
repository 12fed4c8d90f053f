import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../projects/projects-api';
import { branch, version } from '../projects/test-support';
import type * as RowPlayModule from '../projects/use-row-play';
import { versionTrack } from '../projects/version-track';
import { VersionsPanel } from '../projects/versions-panel';
import { AudioPlayerProvider } from './audio-player-provider';
import { stubMediaPlayback } from './test-support';
import {
  useAudioPlayer,
  usePlayerPosition,
  type AudioPlayerApi,
  type PlayerTrack,
} from './use-audio-player';

// While music plays, the position changes about every 100 ms; a list of versions, every row with
// its play button, must not re-render with it: only what shows the position does.

/**
 * The moments (ticks of the test's playback) in which each version's row rendered. A row and its
 * play button each read the player through `useRowPlay`: a tick in which either called it is one
 * render of the row.
 */
const rows = vi.hoisted(() => ({ tick: 0, renderedIn: new Map<string, Set<number>>() }));

vi.mock('../projects/use-row-play', async (importOriginal) => {
  const actual = await importOriginal<typeof RowPlayModule>();
  return {
    useRowPlay: (track: PlayerTrack) => {
      const ticks = rows.renderedIn.get(track.id) ?? new Set<number>();
      ticks.add(rows.tick);
      rows.renderedIn.set(track.id, ticks);
      return actual.useRowPlay(track);
    },
  };
});

/** In how many ticks of the test's playback (`playFor`) the row of version `id` rendered. */
function rowRenders(id: string): number {
  return [...(rows.renderedIn.get(id) ?? [])].filter((tick) => tick > 0).length;
}

const versions = [
  version({ id: 'v1', version_number: 1 }),
  version({ id: 'v2', version_number: 2 }),
];
const mainBranch = branch({ id: 'b1', name: 'main', versions });

beforeEach(() => {
  rows.tick = 0;
  rows.renderedIn.clear();
  vi.useFakeTimers({ shouldAdvanceTime: true });
  stubMediaPlayback();
  // The stream check answers with one byte, as the server does.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(new Response('x', { status: 206 }))),
  );
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The global player, the versions list under a render counter, and what the position shows. */
function renderVersionList() {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  client.setQueryData(queryKeys.branches('p1'), [mainBranch]);
  const seen = { position: 0, player: null as AudioPlayerApi | null };
  function Observer() {
    seen.player = useAudioPlayer();
    seen.position = usePlayerPosition();
    return null;
  }
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <AudioPlayerProvider>
          <Observer />
          <VersionsPanel
            projectName="Night Drive"
            role="owner"
            branch={mainBranch}
            selectedVersion={null}
            onSelectVersion={() => undefined}
            onUpload={() => undefined}
            onNewBranch={() => undefined}
            processing={undefined}
          />
        </AudioPlayerProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const audio = document.querySelector('audio');
  if (!audio || !seen.player) throw new Error('no player');
  Object.defineProperty(audio, 'duration', { configurable: true, get: () => 300 });
  const player = () => seen.player as AudioPlayerApi;

  return {
    seen,
    /** Starts `track` and lets it load until it plays. */
    async start(track: PlayerTrack) {
      act(() => player().playTrack(track));
      await waitFor(() => expect(audio.getAttribute('src')).toContain(track.audioUrl));
      await waitFor(() => expect(player().state.switchingTrack).toBe(false));
      act(() => {
        audio.dispatchEvent(new Event('durationchange'));
        audio.dispatchEvent(new Event('loadedmetadata'));
        audio.dispatchEvent(new Event('canplay'));
      });
      expect(player().state).toMatchObject({ isPlaying: true, loading: false, duration: 300 });
    },
    /**
     * Plays on for `seconds` in ticks of 100 ms: the element's time moves, with its timeupdate
     * events. Rows' renders are counted from here on.
     */
    async playFor(seconds: number) {
      for (let tick = 1; tick <= seconds * 10; tick += 1) {
        rows.tick = tick;
        await act(async () => {
          audio.currentTime += 0.1;
          if (tick % 3 === 0) audio.dispatchEvent(new Event('timeupdate'));
          await vi.advanceTimersByTimeAsync(100);
        });
      }
    },
  };
}

describe('a quiet player', () => {
  it('re-renders no version row while another track plays', async () => {
    const list = renderVersionList();
    await list.start({ id: 'elsewhere', title: 'Elsewhere', audioUrl: '/api/versions/x/stream' });

    await list.playFor(2);

    // The position moved all along...
    expect(list.seen.position).toBeGreaterThanOrEqual(1.9);
    // ...and no row rendered more than once meanwhile.
    expect(rowRenders('v1')).toBeLessThanOrEqual(1);
    expect(rowRenders('v2')).toBeLessThanOrEqual(1);
  });

  it("does not re-render a version's row while its own track plays, once started", async () => {
    const list = renderVersionList();
    await list.start(versionTrack(versions[0]!, 'Night Drive', 'owner'));
    const [first] = within(screen.getByRole('list', { name: 'Version list' })).getAllByRole(
      'listitem',
    );
    expect(within(first!).getByRole('button', { name: 'Pause version 1' })).toBeTruthy();
    expect(within(first!).getByText('Playing')).toBeTruthy();

    await list.playFor(2);

    expect(list.seen.position).toBeGreaterThanOrEqual(1.9);
    expect(rowRenders('v1')).toBeLessThanOrEqual(1);
    expect(rowRenders('v2')).toBeLessThanOrEqual(1);
    expect(within(first!).getByRole('button', { name: 'Pause version 1' })).toBeTruthy();
  });
});
