import type { Comment } from '@takes/contract';
import { formatTime } from '../player/format-time';

interface CommentMarkersProps {
  comments: readonly Comment[];
  /** The version's length in seconds; without it the markers cannot be placed. */
  duration: number | null | undefined;
  onSeek: (seconds: number) => void;
}

/** A thin bar with a mark at each comment's time; a mark plays the version from there. */
export function CommentMarkers({ comments, duration, onSeek }: CommentMarkersProps) {
  const timed = comments.filter(
    (comment): comment is Comment & { timestamp: number } => comment.timestamp !== null,
  );
  if (!duration || duration <= 0 || timed.length === 0) return null;
  return (
    <div
      role="group"
      aria-label="Comment markers"
      className="relative my-3 h-3 rounded-full bg-zinc-200 dark:bg-zinc-800"
    >
      {timed.map((comment) => {
        const left = Math.min(100, Math.max(0, (comment.timestamp / duration) * 100));
        const time = formatTime(comment.timestamp);
        return (
          <button
            key={comment.id}
            type="button"
            title={`${time} ${comment.author}`}
            aria-label={`Comment at ${time} by ${comment.author}`}
            onClick={() => onSeek(comment.timestamp)}
            style={{ left: `${left}%` }}
            className="absolute top-1/2 size-3.5 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white bg-indigo-600 hover:scale-125 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:border-zinc-950 dark:bg-indigo-400"
          />
        );
      })}
    </div>
  );
}
