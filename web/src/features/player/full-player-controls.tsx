import { routes } from '@takes/contract';
import { lazy, Suspense } from 'react';
import { api } from '../../lib/api';
import { formatTime } from './format-time';
import {
  DownloadIcon,
  LoopIcon,
  NextTrackIcon,
  PauseIcon,
  PlayIcon,
  PreviousTrackIcon,
  ShareIcon,
  SkipBackIcon,
  SkipForwardIcon,
  VolumeIcon,
} from './player-icons';
import { iconButton, rangeInput, SKIP_SECONDS } from './player-styles';
import { QualitySelectView } from './quality-select-view';
import { usePlayerPosition, type AudioPlayerApi, type PlayerTrack } from './use-audio-player';

// wavesurfer.js loads only once a track plays, keeping it out of every page's first download.
const PlayerWaveform = lazy(() =>
  import('./player-waveform').then((m) => ({ default: m.PlayerWaveform })),
);
// The comment markers read the track's comments (the comments API and its query hooks): they
// load with the waveform, so pages where nothing plays (the public site) never fetch them.
const WaveformCommentMarkers = lazy(() =>
  import('./waveform-comment-markers').then((m) => ({ default: m.WaveformCommentMarkers })),
);
// The quality select asks the API for the version's qualities (a query hook): it loads with a
// track; until then its view with only Auto stands in, which is what it shows while it asks.
const QualitySelect = lazy(() =>
  import('./quality-select').then((m) => ({ default: m.QualitySelect })),
);

/** What the quality select offers before it knows the version's qualities: only Auto. */
const NO_QUALITIES: ReadonlySet<string> = new Set();

interface FullPlayerControlsProps {
  player: AudioPlayerApi;
  track: PlayerTrack;
  /** Opens the share dialog for the current track. */
  onShare?: (track: PlayerTrack) => void;
}

/** The full player: waveform, seek, transport, loop, volume, quality, download and share. */
export function FullPlayerControls({ player, track, onShare }: FullPlayerControlsProps) {
  const { state, queue } = player;
  const durationKnown = state.duration > 0;
  const waveformDuration = track.duration && track.duration > 0 ? track.duration : state.duration;
  const volumeShown = state.muted ? 0 : state.volume;

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-1 px-3 py-2 sm:px-6">
      {player.audioElement && !state.switchingTrack && waveformDuration > 0 ? (
        <div className="relative">
          <Suspense fallback={<div className="h-20 w-full" aria-hidden="true" />}>
            <PlayerWaveform
              audio={player.audioElement}
              trackId={track.id}
              peaks={track.peaks}
              duration={waveformDuration}
            />
            <WaveformCommentMarkers track={track} duration={waveformDuration} />
          </Suspense>
        </div>
      ) : (
        <div className="h-20 w-full" aria-hidden="true" />
      )}

      <SeekRow player={player} />

      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <div className="min-w-0 flex-1 basis-40">
          <p className="truncate text-sm font-medium" data-testid="player-title">
            {track.title}
          </p>
          {track.artist ? (
            <p className="truncate text-xs text-zinc-500 dark:text-zinc-400">{track.artist}</p>
          ) : null}
        </div>

        <div className="flex items-center gap-1">
          {queue ? (
            <button
              type="button"
              aria-label="Previous track"
              title="Previous track"
              className={iconButton}
              onClick={() => player.previous()}
            >
              <PreviousTrackIcon />
            </button>
          ) : null}
          <button
            type="button"
            aria-label="Skip back 10 seconds"
            title="Skip back 10 seconds"
            className={iconButton}
            disabled={!durationKnown}
            onClick={() => player.skip(-SKIP_SECONDS)}
          >
            <SkipBackIcon />
          </button>
          <button
            type="button"
            aria-label={state.isPlaying ? 'Pause' : 'Play'}
            title={state.isPlaying ? 'Pause' : 'Play'}
            className="inline-flex size-10 items-center justify-center rounded-full bg-indigo-600 text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
            onClick={() => player.togglePlay()}
          >
            {state.isPlaying ? <PauseIcon /> : <PlayIcon />}
          </button>
          <button
            type="button"
            aria-label="Skip forward 10 seconds"
            title="Skip forward 10 seconds"
            className={iconButton}
            disabled={!durationKnown}
            onClick={() => player.skip(SKIP_SECONDS)}
          >
            <SkipForwardIcon />
          </button>
          {queue ? (
            <button
              type="button"
              aria-label="Next track"
              title="Next track"
              className={iconButton}
              disabled={queue.index >= queue.tracks.length - 1}
              onClick={() => player.next()}
            >
              <NextTrackIcon />
            </button>
          ) : null}
          <button
            type="button"
            aria-label="Loop"
            title="Loop"
            aria-pressed={player.loop}
            className={`${iconButton} ${player.loop ? 'bg-indigo-100 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300' : ''}`}
            onClick={() => player.setLoop(!player.loop)}
          >
            <LoopIcon />
          </button>
        </div>

        <div className="flex flex-wrap items-center gap-2">
          <div className="flex items-center gap-1">
            <button
              type="button"
              aria-label={state.muted ? 'Unmute' : 'Mute'}
              title={state.muted ? 'Unmute' : 'Mute'}
              aria-pressed={state.muted}
              className={iconButton}
              onClick={() => player.setMuted(!state.muted)}
            >
              <VolumeIcon muted={state.muted || state.volume === 0} />
            </button>
            <input
              type="range"
              aria-label="Volume"
              aria-valuetext={`${Math.round(volumeShown * 100)}%`}
              min={0}
              max={1}
              step={0.01}
              value={volumeShown}
              onChange={(event) => player.setVolume(Number(event.target.value))}
              className={`${rangeInput} w-20 sm:w-24`}
            />
          </div>

          <div className="flex items-center gap-1">
            <Suspense
              fallback={
                <QualitySelectView
                  available={NO_QUALITIES}
                  value={player.quality}
                  onChange={player.setQuality}
                />
              }
            >
              <QualitySelect
                versionId={track.versionId}
                value={player.quality}
                onChange={player.setQuality}
              />
            </Suspense>
            {track.versionId ? (
              <a
                href={api.url(routes.versions.downloadVersion, {
                  params: { versionId: track.versionId },
                })}
                download
                aria-label="Download track"
                title="Download track"
                className={iconButton}
              >
                <DownloadIcon />
              </a>
            ) : null}
            {track.shareable !== false && (
              <button
                type="button"
                aria-label="Share track"
                title="Share track"
                disabled={!onShare || !track.versionId}
                className={iconButton}
                onClick={() => onShare?.(track)}
              >
                <ShareIcon />
              </button>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}

/** The position, the seek slider and the duration: the only part that follows the position. */
function SeekRow({ player }: { player: AudioPlayerApi }) {
  const { state } = player;
  const currentTime = usePlayerPosition();
  const durationKnown = state.duration > 0;
  const seekInert = state.loading || !durationKnown;
  return (
    <div className="flex items-center gap-2 text-xs text-zinc-600 tabular-nums dark:text-zinc-300">
      <span data-testid="player-current-time" className="w-10 text-right">
        {formatTime(durationKnown || currentTime > 0 ? currentTime : null)}
      </span>
      <input
        type="range"
        aria-label="Seek"
        aria-valuetext={`${formatTime(currentTime)} of ${formatTime(durationKnown ? state.duration : null)}`}
        min={0}
        max={durationKnown ? state.duration : 0}
        step={0.1}
        value={durationKnown ? Math.min(currentTime, state.duration) : 0}
        disabled={seekInert}
        onChange={(event) => player.seek(Number(event.target.value))}
        className={`${rangeInput} min-w-0 flex-1`}
      />
      <span data-testid="player-duration" className="w-10">
        {formatTime(durationKnown ? state.duration : null)}
      </span>
    </div>
  );
}
