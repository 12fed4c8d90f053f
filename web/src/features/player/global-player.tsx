import { useEffect, useRef, useState, type RefObject } from 'react';
import { FullPlayerControls } from './full-player-controls';
import { CollapseIcon, ExpandIcon, PauseIcon, PlayIcon } from './player-icons';
import { barSurface, iconButton, playButton, sheetSurface, SKIP_SECONDS } from './player-styles';
import { useAudioPlayer, usePlayerPosition, type PlayerTrack } from './use-audio-player';
import { useElementHeight } from './use-element-height';
import { useMediaSession } from './use-media-session';
import { useNarrowScreen } from './use-narrow-screen';

/** The idle bar's height in px (`h-14`). */
export const IDLE_BAR_HEIGHT = 56;
/** The compact bar's height in px on screens narrower than `sm`; the issue caps it at 72. */
export const COMPACT_BAR_HEIGHT = 64;
/** Room for the full player until it has been measured. */
const FULL_PLAYER_FALLBACK_HEIGHT = 168;

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
          <CompactProgress duration={state.duration} />
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

/** The compact bar's thin progress line: the only part of the bar that follows the position. */
function CompactProgress({ duration }: { duration: number }) {
  const currentTime = usePlayerPosition();
  const progress = duration > 0 ? Math.min(100, (currentTime / duration) * 100) : 0;
  return (
    <div aria-hidden="true" className="absolute inset-x-0 top-0 h-0.5 bg-zinc-200 dark:bg-zinc-700">
      <div
        data-testid="player-progress"
        className="h-full bg-indigo-600 dark:bg-indigo-400"
        style={{ width: `${progress}%` }}
      />
    </div>
  );
}
