import { describe, expect, it } from 'vitest';
import {
  clampVolume,
  initialPlayerState,
  initialStoreState,
  isSameTrack,
  isValidSeekTime,
  planPlayTrack,
  playerReducer,
} from './player-reducer';
import type { PlayerStoreState } from './player-reducer';
import type { PlayerTrack } from './player-types';

const trackA: PlayerTrack = {
  id: 'a',
  title: 'Take A',
  audioUrl: '/api/versions/a/stream',
  versionId: 'a',
  duration: 12,
};
const trackB: PlayerTrack = { id: 'b', title: 'Take B', audioUrl: '/api/versions/b/stream' };

function withState(patch: Partial<PlayerStoreState>): PlayerStoreState {
  return { ...initialStoreState, ...patch };
}

describe('playerReducer', () => {
  it('PLAY and PAUSE set isPlaying', () => {
    const playing = playerReducer(initialStoreState, { type: 'PLAY' });
    expect(playing.isPlaying).toBe(true);
    expect(playerReducer(playing, { type: 'PAUSE' }).isPlaying).toBe(false);
  });

  it('SET_DURATION stores a finite duration and treats anything else as unknown', () => {
    expect(
      playerReducer(initialStoreState, { type: 'SET_DURATION', duration: 42.5 }).duration,
    ).toBe(42.5);
    const known = withState({ duration: 10 });
    expect(playerReducer(known, { type: 'SET_DURATION', duration: Number.NaN }).duration).toBe(0);
    expect(playerReducer(known, { type: 'SET_DURATION', duration: Infinity }).duration).toBe(0);
  });

  it('answers the same state for what changes nothing (no re-render for a repeated event)', () => {
    const playing = withState({ isPlaying: true, loading: false, duration: 30 });
    expect(playerReducer(playing, { type: 'PLAY' })).toBe(playing);
    expect(playerReducer(playing, { type: 'SET_LOADING', loading: false })).toBe(playing);
    expect(playerReducer(playing, { type: 'SET_DURATION', duration: 30 })).toBe(playing);
    expect(playerReducer(playing, { type: 'SET_SWITCHING_TRACK', switchingTrack: false })).toBe(
      playing,
    );
    expect(playerReducer(withState({}), { type: 'PAUSE' }).isPlaying).toBe(false);
  });

  it('holds the list being played, loop and quality', () => {
    const queue = { tracks: [trackA, trackB], index: 1 };
    const listed = playerReducer(initialStoreState, { type: 'SET_QUEUE', queue });
    expect(listed.queue).toBe(queue);
    expect(playerReducer(listed, { type: 'SET_QUEUE', queue: null }).queue).toBeNull();
    expect(playerReducer(initialStoreState, { type: 'SET_LOOP', loop: true }).loop).toBe(true);
    expect(
      playerReducer(initialStoreState, { type: 'SET_QUALITY', quality: 'original' }).quality,
    ).toBe('original');
    expect(initialStoreState).toMatchObject({ queue: null, loop: false, quality: 'auto' });
  });

  it('SET_LOADING toggles loading', () => {
    const loading = playerReducer(initialStoreState, { type: 'SET_LOADING', loading: true });
    expect(loading.loading).toBe(true);
    expect(playerReducer(loading, { type: 'SET_LOADING', loading: false }).loading).toBe(false);
  });

  it('SET_TRACK starts playing unless told otherwise, sets loading and resets the duration on a new track', () => {
    const before = withState({ currentTrack: trackA, duration: 12 });
    const next = playerReducer(before, { type: 'SET_TRACK', track: trackB });
    expect(next.currentTrack).toBe(trackB);
    expect(next.isPlaying).toBe(true);
    expect(next.loading).toBe(true);
    expect(next.duration).toBe(0);

    const paused = playerReducer(before, { type: 'SET_TRACK', track: trackB, shouldPlay: false });
    expect(paused.isPlaying).toBe(false);
  });

  it('SET_TRACK keeps the duration when the same track is set again', () => {
    const before = withState({ currentTrack: trackA, duration: 12 });
    const next = playerReducer(before, { type: 'SET_TRACK', track: { ...trackA } });
    expect(next.duration).toBe(12);
  });

  it('SET_TRACK takes the stored duration of a new track', () => {
    expect(playerReducer(initialStoreState, { type: 'SET_TRACK', track: trackA }).duration).toBe(
      12,
    );
  });

  it('CLEAR_TRACK resets the track, playing and duration', () => {
    const before = withState({
      currentTrack: trackA,
      isPlaying: true,
      duration: 12,
      loading: true,
    });
    const cleared = playerReducer(before, { type: 'CLEAR_TRACK' });
    expect(cleared).toMatchObject({
      currentTrack: null,
      isPlaying: false,
      duration: 0,
      loading: false,
    });
    expect(cleared.volume).toBe(before.volume);
  });

  it('SET_VOLUME clamps to 0..1 and 0 mutes', () => {
    expect(playerReducer(initialStoreState, { type: 'SET_VOLUME', volume: 0.5 })).toMatchObject({
      volume: 0.5,
      muted: false,
    });
    expect(playerReducer(initialStoreState, { type: 'SET_VOLUME', volume: 3 }).volume).toBe(1);
    expect(playerReducer(initialStoreState, { type: 'SET_VOLUME', volume: -2 })).toMatchObject({
      volume: 0,
      muted: true,
    });
    expect(playerReducer(initialStoreState, { type: 'SET_VOLUME', volume: 0 }).muted).toBe(true);
  });

  it('SET_MUTED sets the muted flag and keeps the volume', () => {
    const muted = playerReducer(initialStoreState, { type: 'SET_MUTED', muted: true });
    expect(muted).toMatchObject({ muted: true, volume: initialStoreState.volume });
    expect(playerReducer(muted, { type: 'SET_MUTED', muted: false }).muted).toBe(false);
  });

  it('SET_PLAYBACK_RATE stores a positive rate and ignores nonsense', () => {
    const fast = playerReducer(initialStoreState, {
      type: 'SET_PLAYBACK_RATE',
      playbackRate: 1.5,
    });
    expect(fast.playbackRate).toBe(1.5);
    expect(playerReducer(fast, { type: 'SET_PLAYBACK_RATE', playbackRate: 0 })).toBe(fast);
  });

  it('SET_SWITCHING_TRACK marks and clears switching', () => {
    const switching = playerReducer(initialStoreState, {
      type: 'SET_SWITCHING_TRACK',
      switchingTrack: true,
    });
    expect(switching.switchingTrack).toBe(true);
    expect(
      playerReducer(switching, { type: 'SET_SWITCHING_TRACK', switchingTrack: false })
        .switchingTrack,
    ).toBe(false);
  });

  it('starts idle with the default volume 0.8', () => {
    expect(initialPlayerState).toMatchObject({
      currentTrack: null,
      isPlaying: false,
      volume: 0.8,
      muted: false,
      playbackRate: 1,
    });
  });
});

describe('player clamps', () => {
  it('clamps the volume to 0..1', () => {
    expect(clampVolume(1.2)).toBe(1);
    expect(clampVolume(-0.1)).toBe(0);
    expect(clampVolume(0.33)).toBe(0.33);
    expect(clampVolume(Number.NaN)).toBe(0);
  });

  it('accepts only non-negative numeric seek times', () => {
    expect(isValidSeekTime(0)).toBe(true);
    expect(isValidSeekTime(12.5)).toBe(true);
    expect(isValidSeekTime(-1)).toBe(false);
    expect(isValidSeekTime(Number.NaN)).toBe(false);
    expect(isValidSeekTime('3')).toBe(false);
  });
});

describe('play a track', () => {
  it('does nothing without a source', () => {
    expect(planPlayTrack(initialPlayerState, { ...trackA, audioUrl: '' })).toBe('ignore');
    expect(planPlayTrack(initialPlayerState, null)).toBe('ignore');
  });

  it('keeps the same track when it is already playing', () => {
    expect(planPlayTrack(withState({ currentTrack: trackA, isPlaying: true }), trackA)).toBe(
      'keep',
    );
  });

  it('resumes the same track when it is paused', () => {
    expect(planPlayTrack(withState({ currentTrack: trackA, isPlaying: false }), trackA)).toBe(
      'resume',
    );
  });

  it('switches to a different track', () => {
    expect(planPlayTrack(withState({ currentTrack: trackA, isPlaying: true }), trackB)).toBe(
      'switch',
    );
    expect(planPlayTrack(initialPlayerState, trackA)).toBe('switch');
  });

  it('treats a track as current by the same id, URL or versionId', () => {
    expect(isSameTrack(trackA, { id: 'a' })).toBe(true);
    expect(isSameTrack(trackA, { id: 'x', audioUrl: trackA.audioUrl })).toBe(true);
    expect(isSameTrack(trackA, { id: 'x', versionId: 'a' })).toBe(true);
    expect(isSameTrack(trackA, trackB)).toBe(false);
    expect(isSameTrack(null, trackA)).toBe(false);
  });
});
