import { useEffect, useRef } from 'react';
import type { AudioPlayerApi } from './player-types';

/** The media keys skip 10 s when the system names no offset. */
const DEFAULT_SEEK_OFFSET = 10;

/**
 * Hands these actions to the media session and answers the cleanup that takes them back. An
 * action the browser does not support is skipped.
 */
function bindActions(
  session: MediaSession,
  actions: [MediaSessionAction, MediaSessionActionHandler][],
): () => void {
  const set = (action: MediaSessionAction, handler: MediaSessionActionHandler | null) => {
    try {
      session.setActionHandler(action, handler);
    } catch {
      // An action this browser does not support.
    }
  };
  for (const [action, handler] of actions) set(action, handler);
  return () => {
    for (const [action] of actions) set(action, null);
  };
}

/** Lets the operating system's media keys and lock screen drive the global player. */
export function useMediaSession(player: AudioPlayerApi) {
  const { currentTrack, isPlaying, duration, playbackRate } = player.state;
  const { position } = player;
  const playerRef = useRef(player);
  useEffect(() => {
    playerRef.current = player;
  });

  useEffect(() => {
    if (typeof navigator === 'undefined' || !('mediaSession' in navigator)) return;
    const session = navigator.mediaSession;
    const actions: [MediaSessionAction, MediaSessionActionHandler][] = [
      ['play', () => playerRef.current.resume()],
      ['pause', () => playerRef.current.pause()],
      ['seekbackward', (d) => playerRef.current.skip(-(d.seekOffset ?? DEFAULT_SEEK_OFFSET))],
      ['seekforward', (d) => playerRef.current.skip(d.seekOffset ?? DEFAULT_SEEK_OFFSET)],
      ['seekto', (d) => d.seekTime !== undefined && playerRef.current.seek(d.seekTime)],
    ];
    return bindActions(session, actions);
  }, []);

  // A list being played: the lock screen's next/previous buttons move through it.
  const inList = player.queue !== null;
  useEffect(() => {
    if (!inList || typeof navigator === 'undefined' || !('mediaSession' in navigator)) return;
    const session = navigator.mediaSession;
    const actions: [MediaSessionAction, MediaSessionActionHandler][] = [
      ['previoustrack', () => playerRef.current.previous()],
      ['nexttrack', () => playerRef.current.next()],
    ];
    return bindActions(session, actions);
  }, [inList]);

  useEffect(() => {
    if (typeof navigator === 'undefined' || !('mediaSession' in navigator)) return;
    if (!currentTrack) {
      navigator.mediaSession.metadata = null;
      return;
    }
    if (typeof MediaMetadata === 'undefined') return;
    navigator.mediaSession.metadata = new MediaMetadata({
      title: currentTrack.title,
      artist: currentTrack.artist ?? '',
      album: currentTrack.album ?? '',
      artwork: currentTrack.coverArt ? [{ src: currentTrack.coverArt }] : [],
    });
  }, [currentTrack]);

  useEffect(() => {
    if (typeof navigator === 'undefined' || !('mediaSession' in navigator)) return;
    navigator.mediaSession.playbackState = currentTrack
      ? isPlaying
        ? 'playing'
        : 'paused'
      : 'none';
  }, [currentTrack, isPlaying]);

  // The lock screen's position follows the player's without re-rendering anything; whole
  // seconds are enough for it (finer would churn every 100 ms).
  useEffect(() => {
    if (typeof navigator === 'undefined' || !('mediaSession' in navigator)) return;
    if (!currentTrack || duration <= 0) return;
    const session = navigator.mediaSession;
    let reported: number | null = null;
    const report = () => {
      const wholeSecond = Math.floor(position.get());
      if (wholeSecond === reported) return;
      reported = wholeSecond;
      try {
        session.setPositionState({
          duration,
          playbackRate,
          position: Math.min(wholeSecond, duration),
        });
      } catch {
        // Older browsers lack setPositionState.
      }
    };
    report();
    return position.subscribe(report);
  }, [currentTrack, duration, playbackRate, position]);
}
