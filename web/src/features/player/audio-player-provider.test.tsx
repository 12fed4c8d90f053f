import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioPlayerProvider } from './audio-player-provider';
import { stubMediaPlayback } from './test-support';
import { useAudioPlayer, type PlayerTrack } from './use-audio-player';

const trackA: PlayerTrack = { id: 'a', title: 'Take A', audioUrl: '/api/versions/a/stream' };
const trackB: PlayerTrack = { id: 'b', title: 'Take B', audioUrl: '/api/versions/b/stream' };

function wrapper({ children }: { children: ReactNode }) {
  return <AudioPlayerProvider>{children}</AudioPlayerProvider>;
}

/** A fetch whose answers the test releases one by one. */
function deferredFetch() {
  const pending: { url: string; init: RequestInit | undefined; resolve: (r: Response) => void }[] =
    [];
  const fetchMock = vi.fn(
    (url: string, init?: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        init?.signal?.addEventListener('abort', () =>
          reject(new DOMException('aborted', 'AbortError')),
        );
        pending.push({ url, init, resolve });
      }),
  );
  return { fetchMock, pending };
}

/** The element stubs, to count plays and see which element each call was made on. */
let playMock: ReturnType<typeof stubMediaPlayback>['play'];
let loadMock: ReturnType<typeof stubMediaPlayback>['load'];

beforeEach(() => {
  ({ play: playMock, load: loadMock } = stubMediaPlayback());
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AudioPlayerProvider', () => {
  it('throws outside the provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => renderHook(() => useAudioPlayer())).toThrow(
      'useAudioPlayer must be used within an AudioPlayerProvider',
    );
  });

  it('does nothing for a track without a source', () => {
    const { fetchMock } = deferredFetch();
    vi.stubGlobal('fetch', fetchMock);
    const { result } = renderHook(() => useAudioPlayer(), { wrapper });
    act(() => result.current.playTrack({ ...trackA, audioUrl: '' }));
    expect(result.current.state.currentTrack).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('switches: marks switching, checks the stream with a one-byte range, then sets the source', async () => {
    const { fetchMock, pending } = deferredFetch();
    vi.stubGlobal('fetch', fetchMock);
    const { result } = renderHook(() => useAudioPlayer(), { wrapper });
    const audio = result.current.audioElement;
    if (!audio) throw new Error('no audio element');

    act(() => result.current.playTrack(trackA));
    expect(result.current.state.switchingTrack).toBe(true);
    expect(result.current.state.currentTrack).toBe(trackA);
    expect(pending[0]?.url).toBe('/api/versions/a/stream?quality=high');
    expect(new Headers(pending[0]?.init?.headers).get('Range')).toBe('bytes=0-0');

    // A play click while switching is ignored.
    act(() => result.current.togglePlay());
    expect(playMock).not.toHaveBeenCalled();

    act(() => pending[0]?.resolve(new Response('x', { status: 206 })));
    await waitFor(() => expect(result.current.state.switchingTrack).toBe(false));
    expect(audio.getAttribute('src')).toBe('/api/versions/a/stream?quality=high');
    expect(result.current.state.isPlaying).toBe(true);
    expect(result.current.isCurrent({ versionId: undefined, id: 'a' })).toBe(true);
  });

  it('does nothing when the same track is playing and resumes it when paused', async () => {
    const { fetchMock, pending } = deferredFetch();
    vi.stubGlobal('fetch', fetchMock);
    const { result } = renderHook(() => useAudioPlayer(), { wrapper });
    act(() => result.current.playTrack(trackA));
    act(() => pending[0]?.resolve(new Response('x', { status: 206 })));
    await waitFor(() => expect(result.current.state.isPlaying).toBe(true));
    const playCalls = playMock.mock.calls.length;

    act(() => result.current.playTrack({ ...trackA }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(playMock).toHaveBeenCalledTimes(playCalls);

    act(() => result.current.pause());
    expect(result.current.state.isPlaying).toBe(false);
    act(() => result.current.playTrack({ ...trackA }));
    expect(playMock).toHaveBeenCalledTimes(playCalls + 1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('plays a list in order: the next starts when one ends, next/previous move, the end stops', async () => {
    const { fetchMock, pending } = deferredFetch();
    vi.stubGlobal('fetch', fetchMock);
    const trackC: PlayerTrack = { id: 'c', title: 'Take C', audioUrl: '/api/versions/c/stream' };
    const { result } = renderHook(() => useAudioPlayer(), { wrapper });
    const audio = result.current.audioElement;
    if (!audio) throw new Error('no audio element');
    const answer = async (index: number, id: string) => {
      act(() => pending[index]?.resolve(new Response('x', { status: 206 })));
      await waitFor(() =>
        expect(audio.getAttribute('src')).toBe(`/api/versions/${id}/stream?quality=high`),
      );
      await waitFor(() => expect(result.current.state.switchingTrack).toBe(false));
    };

    act(() => result.current.playQueue([trackA, trackB, trackC]));
    expect(result.current.queue).toEqual({ tracks: [trackA, trackB, trackC], index: 0 });
    await answer(0, 'a');
    // Take A plays to its end: Take B follows by itself.
    act(() => {
      audio.dispatchEvent(new Event('ended'));
    });
    expect(result.current.state.currentTrack).toBe(trackB);
    expect(result.current.queue?.index).toBe(1);
    await answer(1, 'b');
    expect(result.current.state.isPlaying).toBe(true);

    act(() => result.current.next());
    await answer(2, 'c');
    expect(result.current.queue?.index).toBe(2);
    // Past the last: nothing more; its end stops the player.
    act(() => result.current.next());
    expect(fetchMock).toHaveBeenCalledTimes(3);
    act(() => {
      audio.dispatchEvent(new Event('ended'));
    });
    expect(result.current.state.isPlaying).toBe(false);
    expect(result.current.state.currentTrack).toBe(trackC);

    // Previous early in a track goes to the one before; later in it, back to its start.
    act(() => result.current.previous());
    await answer(3, 'b');
    audio.currentTime = 12;
    act(() => result.current.previous());
    expect(audio.currentTime).toBe(0);
    expect(result.current.queue?.index).toBe(1);
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });

  it('a track played from outside the list ends the list', async () => {
    const { fetchMock, pending } = deferredFetch();
    vi.stubGlobal('fetch', fetchMock);
    const other: PlayerTrack = { id: 'z', title: 'Elsewhere', audioUrl: '/api/versions/z/stream' };
    const { result } = renderHook(() => useAudioPlayer(), { wrapper });
    const audio = result.current.audioElement;
    if (!audio) throw new Error('no audio element');
    act(() => result.current.playQueue([trackA, trackB]));
    act(() => pending[0]?.resolve(new Response('x', { status: 206 })));
    await waitFor(() => expect(result.current.state.switchingTrack).toBe(false));
    // The list's own track again (a pause and play on its row) keeps the list.
    act(() => result.current.playTrack({ ...trackA }));
    expect(result.current.queue?.index).toBe(0);

    act(() => result.current.playTrack(other));
    expect(result.current.queue).toBeNull();
    act(() => pending[1]?.resolve(new Response('x', { status: 206 })));
    await waitFor(() => expect(result.current.state.switchingTrack).toBe(false));
    act(() => {
      audio.dispatchEvent(new Event('ended'));
    });
    expect(result.current.state.currentTrack).toBe(other);
    expect(result.current.state.isPlaying).toBe(false);
  });

  it('a later track cancels the stale load', async () => {
    const { fetchMock, pending } = deferredFetch();
    vi.stubGlobal('fetch', fetchMock);
    const { result } = renderHook(() => useAudioPlayer(), { wrapper });
    const audio = result.current.audioElement;
    if (!audio) throw new Error('no audio element');

    act(() => result.current.playTrack(trackA));
    act(() => result.current.playTrack(trackB));
    expect(pending[0]?.init?.signal?.aborted).toBe(true);
    act(() => pending[1]?.resolve(new Response('x', { status: 206 })));
    await waitFor(() => expect(result.current.state.switchingTrack).toBe(false));
    expect(audio.getAttribute('src')).toBe('/api/versions/b/stream?quality=high');
    expect(result.current.state.currentTrack).toBe(trackB);
  });

  it('falls back to the direct URL when the authenticated check fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { fetchMock, pending } = deferredFetch();
    vi.stubGlobal('fetch', fetchMock);
    const { result } = renderHook(() => useAudioPlayer(), { wrapper });
    act(() => result.current.playTrack(trackA));
    act(() => pending[0]?.resolve(new Response('{}', { status: 401, statusText: 'Unauthorized' })));
    await waitFor(() => expect(result.current.state.switchingTrack).toBe(false));
    expect(result.current.audioElement?.getAttribute('src')).toBe(
      '/api/versions/a/stream?quality=high',
    );
    expect(console.error).toHaveBeenCalledWith(
      expect.stringContaining('preflight'),
      new Error('Authentication required'),
    );
  });

  it('skips the check for bypassAuth tracks', async () => {
    const { fetchMock } = deferredFetch();
    vi.stubGlobal('fetch', fetchMock);
    const { result } = renderHook(() => useAudioPlayer(), { wrapper });
    act(() => result.current.playTrack({ ...trackA, bypassAuth: true }));
    await waitFor(() => expect(result.current.state.switchingTrack).toBe(false));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('goes on to the next track of a list of bypassAuth tracks (a shared collection) by itself', async () => {
    const { fetchMock } = deferredFetch();
    vi.stubGlobal('fetch', fetchMock);
    const stream = (item: string) => `/api/collection-links/K3y/items/${item}/stream`;
    const first: PlayerTrack = { id: 's1', title: 'One', audioUrl: stream('i1'), bypassAuth: true };
    const second: PlayerTrack = {
      id: 's2',
      title: 'Two',
      audioUrl: stream('i2'),
      bypassAuth: true,
    };
    const { result } = renderHook(() => useAudioPlayer(), { wrapper });
    const audio = result.current.audioElement;
    if (!audio) throw new Error('no audio element');

    act(() => result.current.playQueue([first, second]));
    await waitFor(() => expect(audio.getAttribute('src')).toBe(`${stream('i1')}?quality=high`));
    await waitFor(() => expect(result.current.state.switchingTrack).toBe(false));
    act(() => {
      audio.dispatchEvent(new Event('ended'));
    });
    expect(result.current.state.currentTrack).toBe(second);
    await waitFor(() => expect(audio.getAttribute('src')).toBe(`${stream('i2')}?quality=high`));
    await waitFor(() => expect(result.current.state.isPlaying).toBe(true));
    expect(result.current.queue?.index).toBe(1);
    // The link's cookie is the key: no session check is made for either track.
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('ignores negative and non-numeric seeks', async () => {
    const { fetchMock } = deferredFetch();
    vi.stubGlobal('fetch', fetchMock);
    const { result } = renderHook(() => useAudioPlayer(), { wrapper });
    act(() => result.current.playTrack({ ...trackA, bypassAuth: true }));
    await waitFor(() => expect(result.current.state.switchingTrack).toBe(false));
    act(() => result.current.seek(-3));
    act(() => result.current.seek(Number.NaN));
    expect(result.current.position.get()).toBe(0);
  });

  it('remembers volume and mute in local storage', () => {
    const { result } = renderHook(() => useAudioPlayer(), { wrapper });
    expect(result.current.state.volume).toBe(0.8);
    act(() => result.current.setVolume(0.3));
    act(() => result.current.setMuted(true));
    expect(JSON.parse(localStorage.getItem('takes.player.volume') ?? '{}')).toEqual({
      volume: 0.3,
      muted: true,
    });
    const again = renderHook(() => useAudioPlayer(), { wrapper });
    expect(again.result.current.state).toMatchObject({ volume: 0.3, muted: true });
  });
});

describe('AudioPlayerProvider: playing from a time (startAt)', () => {
  /** A provider whose checks answer 206 at once, with a main element of `seconds` duration. */
  function setup(seconds = 300) {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('x', { status: 206 }))),
    );
    const view = renderHook(() => useAudioPlayer(), { wrapper });
    const audio = view.result.current.audioElement;
    if (!audio) throw new Error('no audio element');
    let duration = Number.NaN;
    Object.defineProperty(audio, 'duration', { configurable: true, get: () => duration });
    return {
      result: view.result,
      audio,
      /** The element has the source of `id`; it has not loaded it yet. */
      sourceSet: async (id: string) => {
        await waitFor(() =>
          expect(audio.getAttribute('src')).toBe(`/api/versions/${id}/stream?quality=high`),
        );
        await waitFor(() => expect(view.result.current.state.switchingTrack).toBe(false));
      },
      /** The source's metadata arrives (a new source starts at 0). */
      metadata: () =>
        act(() => {
          audio.currentTime = 0;
          duration = seconds;
          audio.dispatchEvent(new Event('durationchange'));
          audio.dispatchEvent(new Event('loadedmetadata'));
          audio.dispatchEvent(new Event('canplay'));
        }),
    };
  }

  it('starts a new track at startAt once its metadata is known, showing that position at once', async () => {
    const player = setup();
    act(() => player.result.current.playTrack(trackA, { startAt: 42 }));
    expect(player.result.current.position.get()).toBe(42);
    await player.sourceSet('a');
    // Before the metadata the element's time is the old source's (or 0): the position stays.
    act(() => {
      player.audio.currentTime = 0;
      player.audio.dispatchEvent(new Event('timeupdate'));
    });
    expect(player.result.current.position.get()).toBe(42);
    player.metadata();
    expect(player.audio.currentTime).toBe(42);
    expect(player.result.current.position.get()).toBe(42);
    expect(player.result.current.state.isPlaying).toBe(true);
  });

  it('clamps startAt to the duration, and keeps a seek made while the source loads', async () => {
    const player = setup(60);
    act(() => player.result.current.playTrack(trackA, { startAt: 500 }));
    await player.sourceSet('a');
    player.metadata();
    expect(player.audio.currentTime).toBe(60);

    act(() => player.result.current.playTrack(trackB));
    expect(player.result.current.position.get()).toBe(0);
    // A comment's time clicked while Take B loads: it starts there.
    act(() => player.result.current.playTrack(trackB, { startAt: 12 }));
    await player.sourceSet('b');
    player.metadata();
    expect(player.audio.currentTime).toBe(12);
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(2);
  });

  it('moves the current track to startAt without reloading it, resuming it when paused', async () => {
    const player = setup();
    act(() => player.result.current.playTrack(trackA));
    await player.sourceSet('a');
    player.metadata();
    act(() => player.result.current.playTrack({ ...trackA }, { startAt: 30 }));
    expect(player.audio.currentTime).toBe(30);
    expect(player.result.current.position.get()).toBe(30);
    expect(player.result.current.state.isPlaying).toBe(true);

    act(() => player.result.current.pause());
    const plays = playMock.mock.calls.length;
    act(() => player.result.current.playTrack(trackA, { startAt: 90 }));
    expect(player.audio.currentTime).toBe(90);
    expect(playMock).toHaveBeenCalledTimes(plays + 1);
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(1);
  });

  it('plays a list from an item at startAt', async () => {
    const player = setup();
    act(() => player.result.current.playQueue([trackA, trackB], 1, { startAt: 20 }));
    expect(player.result.current.queue?.index).toBe(1);
    await player.sourceSet('b');
    player.metadata();
    expect(player.audio.currentTime).toBe(20);
  });
});

describe('AudioPlayerProvider: warming the next track of a list', () => {
  const trackC: PlayerTrack = { id: 'c', title: 'Take C', audioUrl: '/api/versions/c/stream' };
  const streamOf = (id: string, quality = 'high') =>
    `/api/versions/${id}/stream?quality=${quality}`;

  /** A provider whose checks all answer 206, with a main element whose duration the test sets. */
  function setup() {
    const fetchMock = vi.fn((url: string) => {
      void url;
      return Promise.resolve(new Response('x', { status: 206 }));
    });
    vi.stubGlobal('fetch', fetchMock);
    const createElement = vi.spyOn(document, 'createElement');
    const view = renderHook(() => useAudioPlayer(), { wrapper });
    const audio = view.result.current.audioElement;
    if (!audio) throw new Error('no audio element');
    let duration = Number.NaN;
    Object.defineProperty(audio, 'duration', { configurable: true, get: () => duration });
    const warmUp = createElement.mock.results
      .map((result) => result.value as unknown)
      .find(
        (element): element is HTMLAudioElement =>
          element instanceof HTMLAudioElement && element.dataset.playerWarmup === 'true',
      );
    if (!warmUp) throw new Error('no warm-up element');
    const callsOn = (stub: { mock: { contexts: unknown[] } }) =>
      stub.mock.contexts.filter((element) => element === warmUp).length;
    return {
      result: view.result,
      audio,
      warmUp,
      /** How often the warm-up element was told to play (never) and to load. */
      warmUpPlays: () => callsOn(playMock),
      warmUpLoads: () => callsOn(loadMock),
      fetchMock,
      /** What the warm-up element is fetching, or null. */
      warmed: () => warmUp.getAttribute('src'),
      /** The main element has loaded `id`: its duration is known and it can play. */
      loaded: async (id: string, seconds: number) => {
        await waitFor(() => expect(audio.getAttribute('src')).toBe(streamOf(id)));
        await waitFor(() => expect(view.result.current.state.switchingTrack).toBe(false));
        act(() => {
          audio.currentTime = 0;
          duration = seconds;
          audio.dispatchEvent(new Event('durationchange'));
          audio.dispatchEvent(new Event('canplay'));
        });
      },
      /** The main element's playback reaches `seconds`. */
      at: (seconds: number) =>
        act(() => {
          audio.currentTime = seconds;
          audio.dispatchEvent(new Event('seeked'));
        }),
      ended: () =>
        act(() => {
          audio.dispatchEvent(new Event('ended'));
        }),
    };
  }

  it('warms the next track within 15 s of the end, moves on with the list, and not past its last', async () => {
    const player = setup();
    const { result, warmUp, warmed } = player;
    act(() => result.current.playQueue([trackA, trackB, trackC]));
    await player.loaded('a', 300);
    expect(result.current.state.isPlaying).toBe(true);
    // Early in a long track: nothing is fetched ahead.
    player.at(10);
    expect(warmed()).toBeNull();
    player.at(284);
    expect(warmed()).toBeNull();

    player.at(286);
    // Exactly the URL the player gives its own element for Take B, at the current quality.
    expect(warmed()).toBe(streamOf('b'));
    expect(warmUp.preload).toBe('auto');
    expect(warmUp.muted).toBe(true);
    expect(warmUp.isConnected).toBe(false);
    // Fetched by the element itself: no session check is made ahead of time, and it never plays.
    expect(player.fetchMock.mock.calls.map(([url]) => url)).toEqual([streamOf('a')]);
    expect(player.warmUpPlays()).toBe(0);

    // Take B starts at Take A's end, on the main element as before.
    player.ended();
    expect(result.current.queue?.index).toBe(1);
    expect(result.current.state.currentTrack).toBe(trackB);
    // Until Take B can play, its warm-up is kept; then dropped.
    await waitFor(() => expect(player.audio.getAttribute('src')).toBe(streamOf('b')));
    expect(warmed()).toBe(streamOf('b'));
    await player.loaded('b', 200);
    expect(warmed()).toBeNull();
    player.at(100);
    expect(warmed()).toBeNull();
    player.at(190);
    expect(warmed()).toBe(streamOf('c'));

    player.ended();
    await player.loaded('c', 300);
    expect(result.current.queue?.index).toBe(2);
    // The last track: there is nothing to warm.
    player.at(295);
    expect(warmed()).toBeNull();
    player.ended();
    expect(result.current.state.isPlaying).toBe(false);
    expect(warmed()).toBeNull();
    expect(player.warmUpPlays()).toBe(0);
  });

  it('warms the next track from the start of a track shorter than 15 s', async () => {
    const player = setup();
    act(() => player.result.current.playQueue([trackA, trackB]));
    await player.loaded('a', 12);
    player.at(0);
    expect(player.warmed()).toBe(streamOf('b'));
  });

  it('re-targets the warm-up when the quality changes', async () => {
    const player = setup();
    act(() => player.result.current.playQueue([trackA, trackB, trackC]));
    await player.loaded('a', 300);
    player.at(290);
    expect(player.warmed()).toBe(streamOf('b'));
    act(() => player.result.current.setQuality('standard'));
    expect(player.warmed()).toBe(streamOf('b', 'standard'));
    act(() => player.result.current.setQuality('original'));
    expect(player.warmed()).toBe(streamOf('b', 'original'));
  });

  it('clears the warm-up when the player stops or the list ends', async () => {
    const player = setup();
    const { result, warmed } = player;
    act(() => result.current.playQueue([trackA, trackB, trackC]));
    await player.loaded('a', 300);
    player.at(290);
    expect(warmed()).toBe(streamOf('b'));
    const loadsBefore = player.warmUpLoads();

    act(() => result.current.pause());
    expect(warmed()).toBeNull();
    // load() after removing the source, so the element lets go of its request.
    expect(player.warmUpLoads()).toBe(loadsBefore + 1);
    act(() => result.current.resume());
    player.at(291);
    expect(warmed()).toBe(streamOf('b'));

    // A track from outside the list ends it: nothing is warmed for it.
    const other: PlayerTrack = { id: 'z', title: 'Elsewhere', audioUrl: '/api/versions/z/stream' };
    act(() => result.current.playTrack(other));
    expect(result.current.queue).toBeNull();
    expect(warmed()).toBeNull();
    await player.loaded('z', 300);
    player.at(295);
    expect(warmed()).toBeNull();
  });

  it('warms nothing for a single track, while looping, or on another origin', async () => {
    const player = setup();
    const { result, warmed } = player;
    act(() => result.current.playTrack(trackA));
    await player.loaded('a', 300);
    player.at(295);
    expect(warmed()).toBeNull();

    const elsewhere: PlayerTrack = {
      id: 'x',
      title: 'Remote',
      audioUrl: 'https://cdn.example.com/x.mp3',
    };
    act(() => result.current.playQueue([trackB, elsewhere, trackC]));
    await player.loaded('b', 300);
    player.at(295);
    expect(warmed()).toBeNull();

    act(() => result.current.playQueue([trackB, trackC]));
    act(() => result.current.setLoop(true));
    player.at(296);
    expect(warmed()).toBeNull();
    act(() => result.current.setLoop(false));
    expect(warmed()).toBe(streamOf('c'));
  });
});
