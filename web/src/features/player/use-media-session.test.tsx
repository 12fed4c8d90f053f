import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioPlayerProvider } from './audio-player-provider';
import { stubMediaPlayback } from './test-support';
import { useAudioPlayer } from './use-audio-player';
import { useMediaSession } from './use-media-session';

function wrapper({ children }: { children: ReactNode }) {
  return <AudioPlayerProvider>{children}</AudioPlayerProvider>;
}

const session = {
  metadata: null as unknown,
  playbackState: 'none',
  setActionHandler: vi.fn(),
  setPositionState: vi.fn<(state: MediaPositionState) => void>(),
};

beforeEach(() => {
  stubMediaPlayback();
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(new Response('x', { status: 206 }))),
  );
  vi.stubGlobal(
    'MediaMetadata',
    class {
      constructor(readonly init: unknown) {}
    },
  );
  session.setPositionState = vi.fn<(state: MediaPositionState) => void>();
  Object.defineProperty(navigator, 'mediaSession', { configurable: true, value: session });
});

afterEach(() => {
  Reflect.deleteProperty(navigator, 'mediaSession');
  vi.unstubAllGlobals();
});

describe('useMediaSession', () => {
  it('gives the lock screen the track, the playing state and the position in whole seconds', async () => {
    const { result } = renderHook(
      () => {
        const player = useAudioPlayer();
        useMediaSession(player);
        return player;
      },
      { wrapper },
    );
    const audio = result.current.audioElement;
    if (!audio) throw new Error('no audio element');
    Object.defineProperty(audio, 'duration', { configurable: true, get: () => 120 });
    act(() =>
      result.current.playTrack({ id: 'a', title: 'Take A', artist: 'Band', audioUrl: '/a.mp3' }),
    );
    await waitFor(() => expect(result.current.state.switchingTrack).toBe(false));
    act(() => {
      audio.dispatchEvent(new Event('durationchange'));
      audio.dispatchEvent(new Event('loadedmetadata'));
    });
    expect(session.metadata).toMatchObject({ init: { title: 'Take A', artist: 'Band' } });
    expect(session.playbackState).toBe('playing');

    session.setPositionState.mockClear();
    for (const seconds of [12.2, 12.6, 12.9, 13.1]) {
      act(() => {
        audio.currentTime = seconds;
        audio.dispatchEvent(new Event('seeked'));
      });
    }
    expect(session.setPositionState.mock.calls.map(([state]) => state)).toEqual([
      { duration: 120, playbackRate: 1, position: 12 },
      { duration: 120, playbackRate: 1, position: 13 },
    ]);
  });
});
