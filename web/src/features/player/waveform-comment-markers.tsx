import type { Comment } from '@takes/contract';
import { useLinkComments, useVersionComments } from '../comments/comments-api';
import { formatTime } from './format-time';
import type { PlayerTrack } from './player-types';

const SHARE_PREFIX = 'share:';

/**
 * Marks each timestamped comment on the player's waveform. The owner's versions read the
 * version's comments; a share-page track (id `share:{hash}`) reads the link's.
 */
export function WaveformCommentMarkers({
  track,
  duration,
}: {
  track: PlayerTrack;
  duration: number;
}) {
  const hash = track.id.startsWith(SHARE_PREFIX) ? track.id.slice(SHARE_PREFIX.length) : '';
  const owner = useVersionComments(hash ? '' : (track.versionId ?? ''), true);
  const visitor = useLinkComments(hash, hash !== '');
  const comments: readonly Comment[] = (hash ? visitor.data : owner.data) ?? [];
  const timed = comments.filter((c): c is Comment & { timestamp: number } => c.timestamp !== null);
  if (duration <= 0 || timed.length === 0) return null;
  return (
    // Visual only: the comment list holds the accessible buttons that seek to each time.
    <div
      aria-hidden="true"
      data-testid="waveform-comment-markers"
      className="pointer-events-none absolute inset-0"
    >
      {timed.map((comment) => (
        <span
          key={comment.id}
          title={`${formatTime(comment.timestamp)} ${comment.author}`}
          style={{ left: `${Math.min(100, Math.max(0, (comment.timestamp / duration) * 100))}%` }}
          className="absolute top-0 h-full w-0.5 -translate-x-1/2 bg-amber-500/80 dark:bg-amber-400/80"
        />
      ))}
    </div>
  );
}
