import type { Comment } from '@takes/contract';
import { linkButton } from '../../ui/button-styles';
import { Badge } from '../../ui/badge';
import { Alert } from '../../ui/alert';
import { Spinner } from '../../ui/spinner';
import { formatTime } from '../player/format-time';
import { carriedLabel, isPassageRemoved } from './carried';
import { buildThreads, type CommentNode } from './comment-thread';
import { formatDateTime } from '../../lib/format';

/** What a member may do to a comment (resolve, delete); visitors get none of these. */
export interface CommentOwnerActions {
  onToggleResolved: (comment: Comment) => void;
  onDelete: (comment: Comment) => void;
  /** Which comments the actions show on (their author's own, or every one for an editor); all when left out. */
  appliesTo?: (comment: Comment) => boolean;
  /** The comment whose change is being saved, so its buttons wait. */
  busyId?: string | null;
}

/** How the review view shows comments: passages play, other versions' comments are marked. */
export interface CommentListView {
  /** Plays a range comment's passage (else its time button seeks to the start). */
  onPlayRange?: (range: { start: number; end: number }) => void;
  /** The version on screen: comments of other versions carry 'Version N'. */
  versionNumber?: number;
  /** The comment whose thread was opened from the waveform. */
  highlightId?: string | null;
}

interface CommentListProps {
  view?: CommentListView;
  comments: readonly Comment[] | undefined;
  isPending: boolean;
  error: Error | null;
  /** Seeks the global player (starting the version first when it is not the current track). */
  onSeek: (seconds: number) => void;
  onReply?: (comment: Comment) => void;
  ownerActions?: CommentOwnerActions;
  emptyText?: string;
}

/** Replies deeper than this are drawn at this depth, so long threads stay readable on phones. */
const MAX_INDENT_DEPTH = 3;

function authorInitials(author: string): string {
  const words = author.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [words[0]];
  return letters
    .map((word) => word?.charAt(0) ?? '')
    .join('')
    .toUpperCase();
}

function CommentAvatar({ comment }: { comment: Comment }) {
  if (comment.avatar_url) {
    return (
      <img
        src={comment.avatar_url}
        alt=""
        className="size-8 shrink-0 rounded-full object-cover"
        referrerPolicy="no-referrer"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className="inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-xs font-semibold text-white"
    >
      {authorInitials(comment.author) || '?'}
    </span>
  );
}

/** A comment's time as a button that plays the version from there (a range: its passage). */
export function TimestampButton({
  seconds,
  end = null,
  onSeek,
  onPlayRange,
}: {
  seconds: number;
  end?: number | null;
  onSeek: (seconds: number) => void;
  onPlayRange?: ((range: { start: number; end: number }) => void) | undefined;
}) {
  const label = end === null ? formatTime(seconds) : `${formatTime(seconds)}–${formatTime(end)}`;
  return (
    <button
      type="button"
      onClick={() =>
        end !== null && onPlayRange ? onPlayRange({ start: seconds, end }) : onSeek(seconds)
      }
      aria-label={end === null ? `Play from ${label}` : `Play passage ${label}`}
      className="rounded bg-indigo-50 px-1.5 py-0.5 font-mono text-xs font-semibold text-indigo-700 tabular-nums hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:bg-indigo-950 dark:text-indigo-300 dark:hover:bg-indigo-900"
    >
      {label}
    </button>
  );
}

function CommentItem({
  node,
  depth,
  onSeek,
  onReply,
  ownerActions,
  view,
}: {
  node: CommentNode;
  depth: number;
  onSeek: (seconds: number) => void;
  onReply: ((comment: Comment) => void) | undefined;
  ownerActions: CommentOwnerActions | undefined;
  view: CommentListView | undefined;
}) {
  const { comment } = node;
  const actions =
    ownerActions && (!ownerActions.appliesTo || ownerActions.appliesTo(comment))
      ? ownerActions
      : undefined;
  // Earlier versions' comments are context, answered on their own version's page; one carried
  // onto this version is answered here (the reply goes to the original).
  const reply =
    view?.versionNumber === undefined ||
    comment.version_number === view.versionNumber ||
    comment.carried
      ? onReply
      : undefined;
  const from = carriedLabel(comment);
  const busy = actions?.busyId === comment.id;
  return (
    <li data-testid="comment" data-comment-id={comment.id}>
      <article
        aria-label={`Comment by ${comment.author}`}
        data-highlighted={view?.highlightId === comment.id ? 'true' : undefined}
        className={`flex gap-3 rounded-md p-3 ${comment.resolved ? 'bg-zinc-50 opacity-80 dark:bg-zinc-900/60' : ''} ${view?.highlightId === comment.id ? 'ring-2 ring-amber-400' : ''}`}
      >
        <CommentAvatar comment={comment} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
            <span className="font-semibold text-zinc-900 dark:text-zinc-100">{comment.author}</span>
            {comment.timestamp !== null ? (
              <TimestampButton
                seconds={comment.timestamp}
                end={comment.end_timestamp}
                onSeek={onSeek}
                onPlayRange={view?.onPlayRange}
              />
            ) : null}
            {from ? (
              <Badge tone="neutral">{from}</Badge>
            ) : view?.versionNumber !== undefined &&
              comment.version_number !== view.versionNumber ? (
              <Badge tone="neutral">Version {comment.version_number}</Badge>
            ) : null}
            <time
              dateTime={comment.created_at}
              className="text-xs text-zinc-500 dark:text-zinc-400"
            >
              {formatDateTime(comment.created_at)}
            </time>
            {comment.team_only ? <Badge tone="amber">Team only</Badge> : null}
            {comment.resolved ? <Badge tone="green">Resolved</Badge> : null}
          </div>
          {/* Plain text only: React escapes it, and line breaks are kept by CSS. */}
          <p className="mt-1 text-sm break-words whitespace-pre-wrap text-zinc-800 dark:text-zinc-200">
            {comment.content}
          </p>
          {reply || actions ? (
            <div className="mt-2 flex flex-wrap gap-3">
              {reply ? (
                <button type="button" className={linkButton} onClick={() => reply(comment)}>
                  Reply
                </button>
              ) : null}
              {actions ? (
                <>
                  <button
                    type="button"
                    className={linkButton}
                    disabled={busy}
                    onClick={() => actions.onToggleResolved(comment)}
                  >
                    {comment.resolved ? 'Unresolve' : 'Resolve'}
                  </button>
                  <button
                    type="button"
                    className={`${linkButton} text-red-600 hover:text-red-500 dark:text-red-400`}
                    disabled={busy}
                    onClick={() => actions.onDelete(comment)}
                  >
                    Delete
                  </button>
                </>
              ) : null}
            </div>
          ) : null}
        </div>
      </article>
      {node.replies.length > 0 ? (
        <ul
          aria-label={`Replies to ${comment.author}`}
          className={
            depth < MAX_INDENT_DEPTH
              ? 'ml-6 border-l-2 border-zinc-200 pl-3 sm:ml-11 dark:border-zinc-800'
              : ''
          }
        >
          {node.replies.map((reply) => (
            <CommentItem
              key={reply.comment.id}
              node={reply}
              depth={depth + 1}
              onSeek={onSeek}
              onReply={onReply}
              ownerActions={ownerActions}
              view={view}
            />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** Comments oldest first, replies indented under their parent. */
export function CommentList({
  comments,
  isPending,
  error,
  onSeek,
  onReply,
  ownerActions,
  emptyText = 'No comments yet.',
  view,
}: CommentListProps) {
  if (error) {
    return <Alert tone="error">{`Error loading comments: ${error.message}`}</Alert>;
  }
  if (isPending || !comments) return <Spinner label="Loading comments" />;
  if (comments.length === 0) {
    return <p className="text-sm text-zinc-500 dark:text-zinc-400">{emptyText}</p>;
  }
  // Earlier versions' comments whose passage this version no longer has: listed apart.
  const removed = comments.filter(isPassageRemoved);
  const here = removed.length > 0 ? comments.filter((c) => !isPassageRemoved(c)) : comments;
  const items = (list: readonly Comment[]) =>
    buildThreads(list).map((node) => (
      <CommentItem
        key={node.comment.id}
        node={node}
        depth={1}
        onSeek={onSeek}
        onReply={onReply}
        ownerActions={ownerActions}
        view={view}
      />
    ));
  return (
    <>
      {here.length > 0 || removed.length === 0 ? (
        <ul aria-label="Comments" className="space-y-1">
          {here.length > 0 ? (
            items(here)
          ) : (
            <li className="text-sm text-zinc-500 dark:text-zinc-400">{emptyText}</li>
          )}
        </ul>
      ) : null}
      {removed.length > 0 ? (
        <section aria-label="Passage removed" className="mt-4">
          <h3 className="text-sm font-semibold text-zinc-700 dark:text-zinc-300">
            Passage removed
          </h3>
          <ul className="mt-1 space-y-1">{items(removed)}</ul>
        </section>
      ) : null}
    </>
  );
}
