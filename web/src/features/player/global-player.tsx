import { routes } from '@takes/contract';
import { lazy, Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import { api } from '../../lib/api';
import { formatTime } from './format-time';
import {
  CollapseIcon,
  DownloadIcon,
  ExpandIcon,
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
import { QualitySelectView } from './quality-select-view';
import { useAudioPlayer, type AudioPlayerApi, type PlayerTrack } from './use-audio-player';
import { useElementHeight } from './use-element-height';
import { useMediaSession } from './use-media-session';
import { useNarrowScreen } from './use-narrow-screen';

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

/** The skip buttons move 10 s. */
const SKIP_SECONDS = 10;

/** The idle bar's height in px (`h-14`). */
export const IDLE_BAR_HEIGHT = 56;
/** The compact bar's height in px on screens narrower than `sm`; the issue caps it at 72. */
export const COMPACT_BAR_HEIGHT = 64;
/** Room for the full player until it has been measured. */
const FULL_PLAYER_FALLBACK_HEIGHT = 168;

const barPlacement = 'fixed inset-x-0 bottom-0 z-40 border-t border-zinc-200 dark:border-zinc-800';
const barSurface = `${barPlacement} bg-white/95 backdrop-blur dark:bg-zinc-900/95`;
/** The expanded sheet is opaque: the page under it would show through its upper part. */
const sheetSurface = `${barPlacement} bg-white dark:bg-zinc-900`;

const playButton =
  'inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500';

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

/**
 * The bottom bar with the global audio player's controls, shared by every signed-in page. Below
 * `sm` it is a compact bar (play/pause, title, a thin progress line) that expands to the full
 * player as a sheet. It leaves a spacer as tall as the bar at the end of the page, so every
 * control on the page can be scrolled above it.
 */
export function GlobalPlayer({ onShare }: GlobalPlayerProps) {
  const player = useAudioPlayer();
  const { state } = player;
  const track = state.currentTrack;
  useMediaSession(player);
  const narrow = useNarrowScreen();
  const [expanded, setExpanded] = useState(false);
  const sheetOpen = narrow && expanded && track !== null;

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

  // Escape closes the sheet.
  useEffect(() => {
    if (!sheetOpen) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape' && !event.defaultPrevented) setExpanded(false);
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [sheetOpen]);

  // Focus follows the toggle: into the sheet when it opens, back to the bar when it closes.
  const expandButton = useRef<HTMLButtonElement>(null);
  const collapseButton = useRef<HTMLButtonElement>(null);
  const toggled = useRef(false);
  useEffect(() => {
    if (!toggled.current) return;
    toggled.current = false;
    (sheetOpen ? collapseButton : expandButton).current?.focus();
  }, [sheetOpen]);
  const toggleSheet = (open: boolean) => {
    toggled.current = true;
    setExpanded(open);
  };

  // The open sheet covers the page; the page's room stays that of the compact bar under it.
  const [barRef, measuredHeight] = useElementHeight(
    !track ? IDLE_BAR_HEIGHT : narrow ? COMPACT_BAR_HEIGHT : FULL_PLAYER_FALLBACK_HEIGHT,
  );
  const spacerHeight = sheetOpen ? COMPACT_BAR_HEIGHT : measuredHeight;
  const spacer = (
    <div
      aria-hidden="true"
      data-testid="player-spacer"
      className="shrink-0"
      style={{ height: spacerHeight }}
    />
  );

  if (!track) {
    return (
      <>
        {spacer}
        <section ref={barRef} aria-label="Audio player" className={barSurface}>
          <div className="mx-auto flex h-14 max-w-6xl items-center px-4 text-sm text-zinc-500 sm:px-6 dark:text-zinc-400">
            No track currently playing
          </div>
        </section>
      </>
    );
  }

  if (narrow && !sheetOpen) {
    const progress =
      state.duration > 0 ? Math.min(100, (state.currentTime / state.duration) * 100) : 0;
    return (
      <>
        {spacer}
        <section
          ref={barRef}
          aria-label="Audio player"
          data-testid="compact-player"
          className={barSurface}
          style={{ height: COMPACT_BAR_HEIGHT }}
        >
          <div
            aria-hidden="true"
            className="absolute inset-x-0 top-0 h-0.5 bg-zinc-200 dark:bg-zinc-700"
          >
            <div
              data-testid="player-progress"
              className="h-full bg-indigo-600 dark:bg-indigo-400"
              style={{ width: `${progress}%` }}
            />
          </div>
          <div className="flex h-full items-center gap-3 px-3">
            <button
              type="button"
              aria-label={state.isPlaying ? 'Pause' : 'Play'}
              title={state.isPlaying ? 'Pause' : 'Play'}
              className={playButton}
              onClick={() => player.togglePlay()}
            >
              {state.isPlaying ? <PauseIcon /> : <PlayIcon />}
            </button>
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium" data-testid="player-title">
                {track.title}
              </p>
              {track.artist ? (
                <p className="truncate text-xs text-zinc-500 dark:text-zinc-400">{track.artist}</p>
              ) : null}
            </div>
            <SheetToggle ref={expandButton} expanded={false} onToggle={toggleSheet} />
          </div>
        </section>
      </>
    );
  }

  if (sheetOpen) {
    return (
      <>
        {spacer}
        <section
          aria-label="Audio player"
          data-testid="player-sheet"
          className={`${sheetSurface} max-h-[85dvh] overflow-y-auto rounded-t-xl shadow-lg`}
        >
          <div className="flex justify-end px-3 pt-2">
            <SheetToggle ref={collapseButton} expanded={true} onToggle={toggleSheet} />
          </div>
          <FullPlayerControls player={player} track={track} onShare={onShare} />
        </section>
      </>
    );
  }

  return (
    <>
      {spacer}
      <section ref={barRef} aria-label="Audio player" className={barSurface}>
        <FullPlayerControls player={player} track={track} onShare={onShare} />
      </section>
    </>
  );
}

interface SheetToggleProps {
  /** The sheet is open: this is its 'Collapse player' button, else the bar's 'Expand player'. */
  expanded: boolean;
  /** Called with the sheet's new state. */
  onToggle: (open: boolean) => void;
  ref: RefObject<HTMLButtonElement | null>;
}

/** The compact bar's 'Expand player' and the sheet's 'Collapse player'. */
function SheetToggle({ expanded, onToggle, ref }: SheetToggleProps) {
  const label = expanded ? 'Collapse player' : 'Expand player';
  return (
    <button
      ref={ref}
      type="button"
      aria-label={label}
      title={label}
      aria-expanded={expanded}
      className={iconButton}
      onClick={() => onToggle(!expanded)}
    >
      {expanded ? <CollapseIcon /> : <ExpandIcon />}
    </button>
  );
}

interface FullPlayerControlsProps extends GlobalPlayerProps {
  player: AudioPlayerApi;
  track: PlayerTrack;
}

/** The full player: waveform, seek, transport, loop, volume, quality, download and share. */
function FullPlayerControls({ player, track, onShare }: FullPlayerControlsProps) {
  const { state, queue } = player;
  const durationKnown = state.duration > 0;
  const seekInert = state.loading || !durationKnown;
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
