import { vi } from 'vitest';
import { initialPlayerState } from './player-reducer';
import type { AudioPlayerApi, PlayerState, PlayerTrack } from './player-types';

/**
 * Test-only: a global player that plays nothing, for rendering screens inside
 * `AudioPlayerContext`. Every action is a `vi.fn()` to assert on; `current` is the track it
 * reports as loaded (what `isCurrent` matches by id), `state` overrides the rest of its state.
 */
export function fakePlayer(
  current: PlayerTrack | null = null,
  state: Partial<PlayerState> = {},
): AudioPlayerApi {
  return {
    state: { ...initialPlayerState, ...state, currentTrack: current },
    playTrack: vi.fn(),
    playQueue: vi.fn(),
    queue: null,
    next: vi.fn(),
    previous: vi.fn(),
    pause: vi.fn(),
    resume: vi.fn(),
    togglePlay: vi.fn(),
    seek: vi.fn(),
    isCurrent: (candidate) => current !== null && candidate.id === current.id,
    skip: vi.fn(),
    setVolume: vi.fn(),
    setMuted: vi.fn(),
    loop: false,
    setLoop: vi.fn(),
    quality: 'auto',
    setQuality: vi.fn(),
    audioElement: null,
  };
}
