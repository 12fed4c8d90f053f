import { may, type Comment, type Role, type Version } from '@takes/contract';
import { useCallback, useEffect, useState } from 'react';
import { ProcessingStages } from '../upload/processing-stages';
import { useProcessingStatus } from '../projects/projects-api';
import { isCarriedHere } from '../comments/carried';
import { useVersionComments } from '../comments/comments-api';
import type { CommentPreset } from '../comments/comment-form';
import { VersionComments } from '../comments/version-comments';
import { useSeekToTime } from '../comments/use-seek-to-time';
import { useAudioPlayer, usePlayerPosition, type PlayerTrack } from '../player/use-audio-player';
import { ReviewWaveform, type TimeRange } from './review-waveform';
import { usePlayRange } from './use-play-range';
import { useCommentKey } from './use-comment-key';

/** How often the waveform area asks how processing goes while there are no peaks. */
const PROCESSING_POLL_MS = 2000;

interface VersionReviewProps {
  version: Version;
  track: PlayerTrack;
  role: Role;
  userId: string;
  /** The comments panel beside the waveform (wide screens) or below it; false: below always. */
  sideBySide?: boolean;
  /** The panel's heading level: 2 on the version page, 4 inside the project page's card. */
  headingLevel?: 2 | 3 | 4;
  /** The page shows the processing stages itself (the project page's card after an upload). */
  processingShownElsewhere?: boolean;
}

/**
 * The review view of one version for its members: the large waveform with the playhead, comment
 * markers and passages, and the comments panel. Drag on the waveform (or press `C`) to comment
 * on a passage (or the current time); `Esc` cancels.
 */
export function VersionReview({
  version,
  track,
  role,
  userId,
  sideBySide = true,
  headingLevel = 2,
  processingShownElsewhere = false,
}: VersionReviewProps) {
  const Heading = (['h2', 'h3', 'h4'] as const)[headingLevel - 2] ?? 'h2';
  const headingId = `comments-${version.id}`;
  const player = useAudioPlayer();
  const current = player.isCurrent(track);
  const currentTime = usePlayerPosition(current);
  const [showPrevious, setShowPrevious] = useState(false);
  const comments = useVersionComments(version.id, true, showPrevious);
  const seekTo = useSeekToTime(track);
  const { playRange } = usePlayRange(track);
  const [selection, setSelection] = useState<TimeRange | null>(null);
  const [preset, setPreset] = useState<CommentPreset | null>(null);
  const [highlightId, setHighlightId] = useState<string | null>(null);
  const processing = useProcessingStatus(
    version.status === 'processing' && !processingShownElsewhere ? version.id : null,
    PROCESSING_POLL_MS,
  );

  const peaks = version.waveform_data?.peaks ?? [];
  const duration =
    version.waveform_data?.duration ??
    (typeof version.metadata?.duration === 'number' ? version.metadata.duration : null) ??
    (current ? player.state.duration : 0);

  const startComment = useCallback((start: number, end: number | null) => {
    setSelection(end === null ? null : { start, end });
    setPreset({ start, end, nonce: Date.now() });
  }, []);
  const cancel = useCallback(() => {
    setSelection(null);
    setPreset(null);
  }, []);
  const canComment = may(role, 'comment');
  useCommentKey({
    enabled: canComment,
    onComment: () => startComment(current ? player.position.get() : 0, null),
    onCancel: cancel,
  });

  function openComment(comment: Comment) {
    setHighlightId(comment.id);
    if (comment.timestamp !== null) seekTo(comment.timestamp);
  }
  // Bring the opened thread into view beside the waveform.
  useEffect(() => {
    if (!highlightId) return;
    const item = Array.from(document.querySelectorAll<HTMLElement>('[data-comment-id]')).find(
      (element) => element.dataset.commentId === highlightId,
    );
    item?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [highlightId]);

  const waveform = (
    <ReviewWaveform
      peaks={peaks}
      duration={duration ?? 0}
      currentTime={current ? currentTime : null}
      comments={(comments.data ?? []).filter(
        (c) => c.version_id === version.id || isCarriedHere(c),
      )}
      selection={selection}
      onSeek={seekTo}
      onSelectRange={(range) =>
        canComment ? startComment(range.start, range.end) : seekTo(range.start)
      }
      onOpenComment={openComment}
      onPlayRange={playRange}
      label={`Waveform of Version ${version.version_number}`}
      placeholder={
        version.status === 'processing' && processingShownElsewhere ? (
          'The waveform appears when processing is done; the original plays meanwhile.'
        ) : version.status === 'processing' ? (
          <div className="w-full max-w-md">
            <ProcessingStages status={processing.data} />
            <p className="mt-2">The original plays while the waveform is being made.</p>
          </div>
        ) : version.status === 'failed' ? (
          'This version could not be processed.'
        ) : (
          'No waveform for this version.'
        )
      }
    />
  );

  return (
    <div
      className={
        sideBySide ? 'grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-start' : 'space-y-4'
      }
    >
      <div className="min-w-0 space-y-2">
        {waveform}
        {canComment ? (
          <p className="text-xs text-zinc-600 dark:text-zinc-300">
            Drag across the waveform to comment on a passage, or press C to comment at the current
            time.
          </p>
        ) : null}
      </div>
      <section aria-labelledby={headingId} className="min-w-0 space-y-3">
        <Heading id={headingId} className="text-lg font-semibold">
          Comments
        </Heading>
        <VersionComments
          versionId={version.id}
          track={track}
          role={role}
          userId={userId}
          review={{
            preset,
            onPresetCleared: cancel,
            onPlayRange: playRange,
            highlightId,
            versionNumber: version.version_number,
            showPrevious,
            onShowPreviousChange: setShowPrevious,
          }}
        />
      </section>
    </div>
  );
}
