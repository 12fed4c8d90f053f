import { vi } from 'vitest';
import { initialPlayerState } from './player-reducer';
import type { AudioPlayerApi, PlayerState, PlayerTrack } from './player-types';

/** A fake player's state: the player's, and the position it reports (`currentTime`, seconds). */
export type FakePlayerState = Partial<PlayerState> & { currentTime?: number };

/**
 * Test-only: a global player that plays nothing, for rendering screens inside
 * `AudioPlayerContext`. Every action is a `vi.fn()` to assert on; `current` is the track it
 * reports as loaded (what `isCurrent` matches by id), `state` overrides the rest of its state and
 * its position (which never moves).
 */
export function fakePlayer(
  current: PlayerTrack | null = null,
  { currentTime = 0, ...state }: FakePlayerState = {},
): AudioPlayerApi {
  return {
    state: { ...initialPlayerState, ...state, currentTrack: current },
    position: { get: () => currentTime, subscribe: () => () => undefined },
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

/**
 * Test-only: jsdom's media elements cannot play. This stubs them as a browser behaves: `play()`
 * and `pause()` flip `paused` and fire 'play' and 'pause'; `load()` does nothing. Answers the
 * spies (their `mock.contexts` say on which element each call was made).
 */
export function stubMediaPlayback() {
  let paused = true;
  vi.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(() => paused);
  const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    paused = false;
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    paused = true;
    this.dispatchEvent(new Event('pause'));
  });
  const load = vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  return { play, pause, load };
}
