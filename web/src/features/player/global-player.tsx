import { routes } from '@takes/contract';
import { lazy, Suspense, useEffect, useRef } from 'react';
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
import { QualitySelect } from './quality-select';
import { WaveformCommentMarkers } from './waveform-comment-markers';
import { useAudioPlayer, type PlayerTrack } from './use-audio-player';
import { useMediaSession } from './use-media-session';

// wavesurfer.js loads only once a track plays, keeping it out of every page's first download.
const PlayerWaveform = lazy(() =>
  import('./player-waveform').then((m) => ({ default: m.PlayerWaveform })),
);

/** The skip buttons move 10 s. */
const SKIP_SECONDS = 10;

const iconButton =
  'inline-flex size-9 shrink-0 items-center justify-center rounded-full text-zinc-700 hover:bg-zinc-100 disabled:cursor-not-allowed disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:text-zinc-200 dark:hover:bg-zinc-800';

const rangeInput =
  'h-1.5 cursor-pointer accent-indigo-600 disabled:cursor-not-allowed disabled:opacity-50 dark:accent-indigo-400';

interface GlobalPlayerProps {
  /** Opens the share dialog for the current track; the sharing issue supplies it. */
  onShare?: (track: PlayerTrack) => void;
}

/** Focus is in a field or on a control that handles the key itself. */
function isInteractiveTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return ['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON', 'A'].includes(target.tagName);
}

/** The bottom bar with the global audio player's controls, shared by every signed-in page. */
export function GlobalPlayer({ onShare }: GlobalPlayerProps) {
  const player = useAudioPlayer();
  const { state, queue } = player;
  const track = state.currentTrack;
  useMediaSession(player);

  const playerRef = useRef(player);
  useEffect(() => {
    playerRef.current = player;
  });

  // Keyboard shortcuts: Space play/pause, arrows seek 10 s, when focus is not in a field.
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const current = playerRef.current;
      if (!current.state.currentTrack || event.defaultPrevented) return;
      if (event.altKey || event.ctrlKey || event.metaKey || isInteractiveTarget(event.target)) {
        return;
      }
      if (event.key === ' ') {
        event.preventDefault();
        current.togglePlay();
      } else if (event.key === 'ArrowLeft') {
        event.preventDefault();
        current.skip(-SKIP_SECONDS);
      } else if (event.key === 'ArrowRight') {
        event.preventDefault();
        current.skip(SKIP_SECONDS);
      }
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  if (!track) {
    return (
      <section
        aria-label="Audio player"
        className="fixed inset-x-0 bottom-0 z-40 border-t border-zinc-200 bg-white/95 backdrop-blur dark:border-zinc-800 dark:bg-zinc-900/95"
      >
        <div className="mx-auto flex h-14 max-w-6xl items-center px-4 text-sm text-zinc-500 sm:px-6 dark:text-zinc-400">
          No track currently playing
        </div>
      </section>
    );
  }

  const durationKnown = state.duration > 0;
  const seekInert = state.loading || !durationKnown;
  const waveformDuration = track.duration && track.duration > 0 ? track.duration : state.duration;
  const volumeShown = state.muted ? 0 : state.volume;

  return (
    <>
      {/* The layout leaves room for the idle bar; the full player needs this much more. */}
      <div aria-hidden="true" className="h-40 shrink-0 sm:h-28" />
      <section
        aria-label="Audio player"
        className="fixed inset-x-0 bottom-0 z-40 border-t border-zinc-200 bg-white/95 backdrop-blur dark:border-zinc-800 dark:bg-zinc-900/95"
      >
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
              </Suspense>
              <WaveformCommentMarkers track={track} duration={waveformDuration} />
            </div>
          ) : (
            <div className="h-20 w-full" aria-hidden="true" />
          )}

          <div className="flex items-center gap-2 text-xs text-zinc-600 tabular-nums dark:text-zinc-300">
            <span data-testid="player-current-time" className="w-10 text-right">
              {formatTime(durationKnown || state.currentTime > 0 ? state.currentTime : null)}
            </span>
            <input
              type="range"
              aria-label="Seek"
              aria-valuetext={`${formatTime(state.currentTime)} of ${formatTime(durationKnown ? state.duration : null)}`}
              min={0}
              max={durationKnown ? state.duration : 0}
              step={0.1}
              value={durationKnown ? Math.min(state.currentTime, state.duration) : 0}
              disabled={seekInert}
              onChange={(event) => player.seek(Number(event.target.value))}
              className={`${rangeInput} min-w-0 flex-1`}
            />
            <span data-testid="player-duration" className="w-10">
              {formatTime(durationKnown ? state.duration : null)}
            </span>
          </div>

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
                <QualitySelect
                  versionId={track.versionId}
                  value={player.quality}
                  onChange={player.setQuality}
                />
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
      </section>
    </>
  );
}
