import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioPlayerProvider } from './audio-player-provider';
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

let paused = true;
let playSpy: ReturnType<typeof vi.fn<() => void>>;

beforeEach(() => {
  paused = true;
  vi.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(() => paused);
  playSpy = vi.fn<() => void>();
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    playSpy();
    paused = false;
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    paused = true;
    this.dispatchEvent(new Event('pause'));
  });
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
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
    expect(playSpy).not.toHaveBeenCalled();

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
    const playCalls = playSpy.mock.calls.length;

    act(() => result.current.playTrack({ ...trackA }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(playSpy).toHaveBeenCalledTimes(playCalls);

    act(() => result.current.pause());
    expect(result.current.state.isPlaying).toBe(false);
    act(() => result.current.playTrack({ ...trackA }));
    expect(playSpy).toHaveBeenCalledTimes(playCalls + 1);
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
    expect(result.current.state.currentTime).toBe(0);
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
