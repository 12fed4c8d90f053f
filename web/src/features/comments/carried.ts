import type { Comment } from '@takes/contract';
import { formatTime } from '../player/format-time';

/**
 * Where an earlier version's comment came from, as its marker and list item say it: 'from
 * Version 3 at 1:23' (its old time), or 'from Version 3' for a comment on the whole version.
 */
export function carriedLabel(comment: Comment): string | null {
  const carried = comment.carried;
  if (!carried) return null;
  const from = `from Version ${carried.from_version_number}`;
  return carried.from_timestamp === null
    ? from
    : `${from} at ${formatTime(carried.from_timestamp)}`;
}

/** Carried onto this version at a time of its own (shown on the waveform). */
export function isCarriedHere(comment: Comment): boolean {
  return comment.carried?.status === 'moved';
}

/** An earlier version's comment whose passage this version no longer has. */
export function isPassageRemoved(comment: Comment): boolean {
  return comment.carried?.status === 'removed';
}
