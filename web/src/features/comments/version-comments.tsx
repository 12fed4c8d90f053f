import { may, type Comment, type Role } from '@takes/contract';
import { useState } from 'react';
import { errorMessage } from '../../lib/api';
import { ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { useAudioPlayer, type PlayerTrack } from '../player/use-audio-player';
import { CommentForm, type CommentDraft, type CommentPreset } from './comment-form';
import { CommentList, type CommentListView } from './comment-list';
import { CommentMarkers } from './comment-markers';
import { MarkerImport } from '../markers/marker-import';
import {
  useAddVersionComment,
  useDeleteComment,
  useSetCommentResolved,
  useVersionComments,
} from './comments-api';
import { useSeekToTime } from './use-seek-to-time';

interface VersionCommentsProps {
  versionId: string;
  /** The version as the global player plays it, for timestamps and 'Attach current time'. */
  track: PlayerTrack;
  /** The caller's role on the project: a Viewer only reads, an Editor moderates every comment. */
  role: Role;
  /** The caller, who may resolve and delete their own comments (as a Commenter). */
  userId: string;
  /**
   * Inside the review view: the waveform sets the time or passage to comment on and shows the
   * markers, so the list plays passages and earlier versions' comments can be shown.
   */
  review?: CommentListView & {
    preset: CommentPreset | null;
    onPresetCleared: () => void;
    /** 'Show comments from previous versions', held by the review view for its waveform. */
    showPrevious?: boolean;
    onShowPreviousChange?: (show: boolean) => void;
  };
}

/**
 * A version's comments for its members: everyone reads; a Commenter adds, replies, and resolves
 * or deletes their own; an Editor (and the owner) resolves and deletes any.
 */
export function VersionComments({ versionId, track, role, userId, review }: VersionCommentsProps) {
  const canComment = may(role, 'comment');
  const canModerate = may(role, 'moderateComments');
  const [showResolved, setShowResolved] = useState(true);
  const [replyingTo, setReplyingTo] = useState<Comment | null>(null);
  const [deleting, setDeleting] = useState<Comment | null>(null);
  const [ownShowPrevious, setOwnShowPrevious] = useState(false);
  // The review view holds it: its waveform shows the carried comments too.
  const showPrevious = review?.showPrevious ?? ownShowPrevious;
  const setShowPrevious = review?.onShowPreviousChange ?? setOwnShowPrevious;
  const player = useAudioPlayer();
  const comments = useVersionComments(
    versionId,
    showResolved,
    review !== undefined && showPrevious,
  );
  const addComment = useAddVersionComment(versionId);
  const setResolved = useSetCommentResolved(versionId);
  const deleteComment = useDeleteComment(versionId);
  const seekTo = useSeekToTime(track);

  const duration =
    track.duration ??
    (player.isCurrent(track) && player.state.duration > 0 ? player.state.duration : null);

  async function post(draft: CommentDraft) {
    const original = replyingTo && replyingTo.version_id !== versionId ? replyingTo : null;
    await addComment.mutateAsync(original ? { ...draft, on_version: original.version_id } : draft);
  }

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await deleteComment.mutateAsync(deleting.id);
      if (replyingTo?.id === deleting.id) setReplyingTo(null);
      setDeleting(null);
    } catch (error) {
      // Comment deletion failures are logged only, with no message; the dialog stays open.
      console.error('Failed to delete comment:', error);
    }
  }

  function toggleResolved(comment: Comment) {
    setResolved.mutate(
      { id: comment.id, resolved: !comment.resolved },
      { onError: (error) => console.error('Failed to update comment:', error) },
    );
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
        <label className="inline-flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
          <input
            type="checkbox"
            checked={showResolved}
            onChange={(event) => setShowResolved(event.target.checked)}
            className="size-4 shrink-0 accent-indigo-600"
          />
          Show resolved
        </label>
        {review ? (
          <label className="inline-flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
            <input
              type="checkbox"
              checked={showPrevious}
              onChange={(event) => setShowPrevious(event.target.checked)}
              className="size-4 shrink-0 accent-indigo-600"
            />
            Show comments from previous versions
          </label>
        ) : null}
      </div>

      {comments.data && !review ? (
        <CommentMarkers comments={comments.data} duration={duration} onSeek={seekTo} />
      ) : null}

      <CommentList
        comments={comments.data}
        isPending={comments.isPending}
        error={comments.error}
        onSeek={seekTo}
        view={review}
        onReply={canComment ? setReplyingTo : undefined}
        ownerActions={{
          onToggleResolved: toggleResolved,
          onDelete: setDeleting,
          appliesTo: (comment) => canModerate || (canComment && comment.user_id === userId),
          busyId: setResolved.isPending ? (setResolved.variables?.id ?? null) : null,
        }}
      />

      {canComment ? (
        <CommentForm
          track={track}
          onSubmit={post}
          pending={addComment.isPending}
          error={addComment.error ? errorMessage(addComment.error, addComment.error.message) : null}
          replyingTo={replyingTo}
          onCancelReply={() => setReplyingTo(null)}
          allowTeamOnly
          preset={review?.preset ?? null}
          onPresetCleared={review?.onPresetCleared}
        />
      ) : null}

      <MarkerImport versionId={versionId} role={role} duration={duration} />

      {deleting ? (
        <ConfirmDeleteModal
          title="Delete comment"
          description="Are you sure you want to delete this comment? This cannot be undone."
          confirmLabel="Delete"
          pendingLabel="Deleting…"
          pending={deleteComment.isPending}
          onConfirm={() => void confirmDelete()}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </div>
  );
}
