import { useEffect, useRef, useState } from 'react';

/** What the page reports about one listen; downloads are counted by the download route itself. */
export type ListenEvent = 'play' | 'played_30s' | 'played_90';

/** Heard this many seconds of one play: 'played_30s'. */
export const HEARD_SECONDS_RECEIPT = 30;
/** Heard this share of the item's duration in one play: 'played_90'. */
export const HEARD_SHARE_RECEIPT = 0.9;
/** Within this many seconds of the end, the play counts as finished (a later restart is a new play). */
const END_MARGIN_SECONDS = 1;
/** Going back more than this after finishing is a restart (a replay, or the player's loop). */
const RESTART_JUMP_SECONDS = 1;
/**
 * Between two position updates the heard time grows by the position's step, but never by more
 * than the wall-clock time that passed (times the playback rate) plus this: a seek is a jump
 * the listener did not hear.
 */
const STEP_SLACK_SECONDS = 0.25;

/** One look at the global player, as the page sees it. */
export interface ListenSample {
  /** The page's item the player has loaded, or null when it has something else (or nothing). */
  itemId: string | null;
  /** Actually playing: not paused, not still loading. */
  playing: boolean;
  /** The player's position in the item, in seconds. */
  position: number;
  /** The item's duration in seconds; null or 0 while unknown. */
  duration: number | null;
  /** The player's speed (1 = normal). */
  playbackRate: number;
}

interface Play {
  itemId: string;
  started: boolean;
  heard: number;
  sent30: boolean;
  sent90: boolean;
  finished: boolean;
}

/**
 * Follows one listener's plays from successive samples of the player and says which receipts
 * are due: 'play' when a play starts, 'played_30s' at 30 s heard, 'played_90' at 90 % of the
 * duration heard, each once per play. Heard time counts only time played, not seeks. A play
 * ends when another item (or something else) is loaded, or when the item restarts after its end.
 */
export function createListenTracker() {
  let play: Play | null = null;
  let last: { sample: ListenSample; at: number } | null = null;

  function fresh(itemId: string): Play {
    return { itemId, started: false, heard: 0, sent30: false, sent90: false, finished: false };
  }

  return {
    /** Takes a sample made at `now` (milliseconds) and answers the receipts it makes due. */
    update(sample: ListenSample, now: number): ListenEvent[] {
      const { itemId, playing, position, duration, playbackRate } = sample;
      if (itemId === null) {
        play = null;
        last = null;
        return [];
      }
      const previous = last?.sample.itemId === itemId ? last : null;
      if (
        previous &&
        previous.sample.playing === playing &&
        previous.sample.position === position &&
        previous.sample.duration === duration
      ) {
        return [];
      }
      if (!play || play.itemId !== itemId) play = fresh(itemId);
      else if (
        play.finished &&
        previous &&
        position < previous.sample.position - RESTART_JUMP_SECONDS
      )
        play = fresh(itemId);

      if (playing && previous?.sample.playing) {
        const step = position - previous.sample.position;
        const elapsed = (Math.max(0, now - previous.at) / 1000) * Math.max(0, playbackRate);
        if (step > 0) play.heard += Math.min(step, elapsed + STEP_SLACK_SECONDS);
      }
      last = { sample, at: now };

      const events: ListenEvent[] = [];
      if (playing && !play.started) {
        play.started = true;
        events.push('play');
      }
      if (play.started && !play.sent30 && play.heard >= HEARD_SECONDS_RECEIPT) {
        play.sent30 = true;
        events.push('played_30s');
      }
      const known = duration !== null && Number.isFinite(duration) && duration > 0;
      if (known && play.started && !play.sent90 && play.heard >= duration * HEARD_SHARE_RECEIPT) {
        play.sent90 = true;
        events.push('played_90');
      }
      if (known && position >= duration - END_MARGIN_SECONDS) play.finished = true;
      return events;
    },
  };
}

export type ListenTracker = ReturnType<typeof createListenTracker>;

function wallClock(): number {
  return performance.now();
}

/**
 * Sends a shared page's listen receipts as the global player plays its items: `onReceipt` is
 * called with the item and the event each time one is due (see createListenTracker).
 */
export function useListenReceipts(
  sample: ListenSample,
  onReceipt: (itemId: string, event: ListenEvent) => void,
  now: () => number = wallClock,
): void {
  const [tracker] = useState(createListenTracker);
  const latest = useRef({ onReceipt, now });
  useEffect(() => {
    latest.current = { onReceipt, now };
  });
  const { itemId, playing, position, duration, playbackRate } = sample;

  useEffect(() => {
    const events = tracker.update(
      { itemId, playing, position, duration, playbackRate },
      latest.current.now(),
    );
    if (itemId === null) return;
    for (const event of events) latest.current.onReceipt(itemId, event);
  }, [tracker, itemId, playing, position, duration, playbackRate]);
}
