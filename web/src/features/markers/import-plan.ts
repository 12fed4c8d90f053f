import { COMMENT_MAX_LENGTH, type Marker } from '@takes/contract';
import { formatTime } from '../player/format-time';

/** What an imported marker file adds: the comments to post, and the markers past the end. */
export interface ImportPlan {
  /** In time order; a range's end is cut to the version's end, labels to a comment's length. */
  post: Marker[];
  /** Markers starting after the version ends: the server would refuse them, so they are left out. */
  beyond: Marker[];
}

/**
 * The comments a marker file becomes on a version `duration` seconds long (null: not known yet,
 * so nothing is left out).
 */
export function planImport(markers: readonly Marker[], duration: number | null): ImportPlan {
  const known = duration !== null && Number.isFinite(duration) && duration > 0;
  const post: Marker[] = [];
  const beyond: Marker[] = [];
  const sorted = [...markers].sort((a, b) => a.start - b.start);
  for (const marker of sorted) {
    if (known && marker.start > duration) {
      beyond.push(marker);
      continue;
    }
    let end = marker.end;
    if (known && end !== null && end > duration) end = duration;
    if (end !== null && end <= marker.start) end = null;
    post.push({ start: marker.start, end, label: marker.label.slice(0, COMMENT_MAX_LENGTH) });
  }
  return { post, beyond };
}

/** A marker's time as the comment list shows it: m:ss, or m:ss–m:ss for a range. */
export function markerTime(marker: Marker): string {
  return marker.end === null
    ? formatTime(marker.start)
    : `${formatTime(marker.start)}–${formatTime(marker.end)}`;
}
