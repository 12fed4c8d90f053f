import { PLATFORM_GAIN_UNCHANGED_DB, type PlatformId } from '@takes/contract';
import { useState } from 'react';
import { useAudioPlayer, type PlayerTrack } from '../player/use-audio-player';
import { PlatformSelect } from './platform-select';
import { peakNote, previewOf, signedDb, type StoredLoudness } from './preview-logic';
import { usePlayerPreviewGain } from './use-player-preview-gain';

export const VERSION_PREVIEW_HINT =
  'Hear this version at the level a streaming platform would play it.';
export const NOT_PLAYING_NOTE = 'Applied while this version plays.';
export const NOT_RAISED_NOTE = 'Heard at its own level here: the player cannot turn this audio up.';

const noteClass = 'text-xs text-zinc-600 dark:text-zinc-400';

/**
 * 'Preview as' on the version page: the platform's gain on the global player while it plays
 * this version, and the sentence saying what the platform does ('Spotify will play this 3.2 dB
 * quieter'). The box carries the gain actually applied (`data-applied-gain-db`, e.g. '-6.0').
 */
export function VersionPlatformPreview({
  version,
  track,
}: {
  version: StoredLoudness;
  track: PlayerTrack;
}) {
  const player = useAudioPlayer();
  const [platform, setPlatform] = useState<PlatformId | null>(null);
  const preview = platform ? previewOf(platform, version) : null;
  const gainDb = preview?.available ? preview.gainDb : null;
  const active = player.isCurrent(track);
  const applied = usePlayerPreviewGain(gainDb, active, track.audioUrl);
  const notApplied =
    applied.path === 'volume' && gainDb !== null && gainDb >= PLATFORM_GAIN_UNCHANGED_DB;

  return (
    <div
      data-testid="platform-preview"
      data-platform={platform ?? 'off'}
      data-applied-gain-db={applied.appliedDb === null ? undefined : signedDb(applied.appliedDb)}
      data-gain-path={applied.path ?? undefined}
      className="mt-4 space-y-1 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <PlatformSelect value={platform} onChange={setPlatform} />
        <p
          aria-live="polite"
          data-testid="platform-preview-sentence"
          className="text-sm font-medium text-zinc-900 dark:text-zinc-100"
        >
          {preview?.sentence ?? ''}
        </p>
      </div>
      {!platform && <p className={noteClass}>{VERSION_PREVIEW_HINT}</p>}
      {platform && preview?.available && preview.limitedByPeak && (
        <p className={noteClass}>{peakNote(platform)}</p>
      )}
      {gainDb !== null && !active && <p className={noteClass}>{NOT_PLAYING_NOTE}</p>}
      {notApplied && <p className={noteClass}>{NOT_RAISED_NOTE}</p>}
    </div>
  );
}
