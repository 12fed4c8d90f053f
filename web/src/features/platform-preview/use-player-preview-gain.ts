import { useEffect, useState } from 'react';
import { useAudioPlayer } from '../player/use-audio-player';
import {
  gainRouteOf,
  mediaFromOwnOrigin,
  setRouteGain,
  VolumeScaler,
  webAudioAvailable,
  type GainPath,
} from './player-gain';

export interface AppliedGain {
  /** How the gain reaches the audio; null while nothing is applied. */
  path: GainPath | null;
  /** The dB the audio actually gets (a positive gain through the volume gets 0). */
  appliedDb: number | null;
}

/**
 * Puts `gainDb` on the global player's audio while `active` (its track is the one playing), and
 * takes it off again (unity gain) when it changes, stops being active or the page goes. Nothing
 * here follows the playing position, so it never re-renders while music plays.
 */
export function usePlayerPreviewGain(
  gainDb: number | null,
  active: boolean,
  /** Any of the player's stream URLs, to ask once where its audio comes from. */
  streamUrl: string,
): AppliedGain {
  const { audioElement } = useAudioPlayer();
  const [ownOrigin, setOwnOrigin] = useState<boolean | null>(null);
  const wanted = gainDb !== null && active && audioElement !== null;

  useEffect(() => {
    if (!wanted || ownOrigin !== null) return;
    let live = true;
    void mediaFromOwnOrigin(streamUrl).then((own) => {
      if (live) setOwnOrigin(own);
    });
    return () => {
      live = false;
    };
  }, [wanted, ownOrigin, streamUrl]);

  const path: GainPath | null =
    !wanted || ownOrigin === null
      ? null
      : ownOrigin && webAudioAvailable()
        ? 'web-audio'
        : 'volume';

  useEffect(() => {
    if (!audioElement || gainDb === null || path === null) return;
    if (path === 'web-audio') {
      const route = gainRouteOf(audioElement);
      if (route) {
        setRouteGain(route, gainDb);
        return () => setRouteGain(route, 0);
      }
    }
    const scaler = new VolumeScaler(audioElement);
    scaler.setGainDb(Math.min(0, gainDb));
    return () => scaler.dispose();
  }, [audioElement, gainDb, path]);

  if (path === null || gainDb === null) return { path: null, appliedDb: null };
  return { path, appliedDb: path === 'web-audio' ? gainDb : Math.min(0, gainDb) };
}
