import type { ShareLink } from '@takes/contract';
import { formatRelativeTime } from '../../lib/format';

/** "Played N times · last played {relative time}" ('1 time' singular), or 'Not played yet'. */
export function linkPlaysText(
  link: Pick<ShareLink, 'play_count' | 'last_played_at'>,
  now = Date.now(),
): string {
  if (link.play_count <= 0) return 'Not played yet';
  const times = `Played ${link.play_count} ${link.play_count === 1 ? 'time' : 'times'}`;
  const last = formatRelativeTime(link.last_played_at, now);
  return last ? `${times} · last played ${last}` : times;
}
