import {
  REVIEW_STATUS_LABELS,
  REVIEW_STATUSES,
  SHARE_MESSAGES,
  type Comment,
  type ReviewState,
} from '@takes/contract';
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { errorMessage } from '../../lib/api';
import { useShareLiveEvents } from '../../lib/live-events';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { PageSpinner } from '../../ui/spinner';
import { useAuth } from '../auth/use-auth';
import type { CommentPreset } from '../comments/comment-form';
import { CommentList } from '../comments/comment-list';
import { useAddLinkComment, useLinkComments } from '../comments/comments-api';
import { useSeekToTime } from '../comments/use-seek-to-time';
import {
  useAudioPlayer,
  usePlayerPosition,
  type AudioQuality,
  type PlayerTrack,
} from '../player/use-audio-player';
import { useSetLinkReview } from '../review/review-api';
import { ReviewStatusBadge } from '../review/review-status';
import { ReviewWaveform, type TimeRange } from '../review/review-waveform';
import { useCommentKey } from '../review/use-comment-key';
import { usePlayRange } from '../review/use-play-range';
import { LinkFailure, lookupFailure } from './link-failure';
import { LinkPasswordForm } from './link-password-form';
import {
  isBlindTestAnswer,
  isCollectionLinkAnswer,
  isLockedAnswer,
  sharedAudioUrl,
  sharedDownloadUrl,
  useSharedVersion,
  useUnlockShareLink,
  type SharedVersion,
} from './share-api';
import { useNoIndex } from './use-noindex';
import { ExportComments } from '../markers/export-comments';
import { VisitorCommenting } from './visitor-commenting';
import { RequestAccess } from './request-access';
import { useVisitorName } from './visitor-name';
import { formatDateTime } from '../../lib/format';

function isExpired(expiresAt: string | null): boolean {
  return expiresAt !== null && new Date(expiresAt).getTime() <= Date.now();
}

/** The global player's track for a shared version; it streams through the link, no session needed. */
function sharedTrack(hash: string, shared: SharedVersion): PlayerTrack {
  const title = `${shared.project.name} - Version ${shared.version.version_number}`;
  return {
    // No versionId: the owner's version routes (qualities, download) are not the visitor's to call.
    id: `share:${hash}`,
    title,
    artist: shared.project.name,
    album: shared.project.name,
    audioUrl: sharedAudioUrl(hash),
    bypassAuth: true,
    ...(shared.version.waveform_data
      ? {
          peaks: shared.version.waveform_data.peaks,
          duration: shared.version.waveform_data.duration,
        }
      : {}),
  };
}

/** A collection link's page: its own chunk, loaded only when the key is a collection link's. */
const CollectionSharePage = lazy(() =>
  import('./collection-share-page').then((m) => ({ default: m.CollectionSharePage })),
);

/** A blind test's listener page: its own chunk, loaded only when the key is a blind test's. */
const BlindListenerPage = lazy(() =>
  import('../blind-tests/listener/blind-listener-page').then((m) => ({
    default: m.BlindListenerPage,
  })),
);

/** /share/:hash, the shared link view: public, signed in or not. */
export function SharePage() {
  const { hash = '' } = useParams();
  const shared = useSharedVersion(hash);
  useNoIndex();
  // A collection link's key: the version lookup says so, and the collection is shown instead.
  if (shared.isError && isCollectionLinkAnswer(shared.error)) {
    return (
      <Suspense fallback={<PageSpinner label="Loading shared collection" />}>
        <CollectionSharePage hash={hash} />
      </Suspense>
    );
  }
  // A blind test's key: likewise, its listener page.
  if (shared.isError && isBlindTestAnswer(shared.error)) {
    return (
      <Suspense fallback={<PageSpinner label="Loading blind test" />}>
        <BlindListenerPage hash={hash} />
      </Suspense>
    );
  }
  return <SharedVersionPage hash={hash} shared={shared} />;
}

function SharedVersionPage({
  hash,
  shared,
}: {
  hash: string;
  shared: ReturnType<typeof useSharedVersion>;
}) {
  useDocumentTitle(
    shared.data
      ? `${shared.data.project.name} - Version ${shared.data.version.version_number}`
      : 'Shared version',
  );

  if (shared.isPending) return <PageSpinner label="Loading shared version" />;
  // Protected and not unlocked here (or no longer: a new password ends earlier unlocks). Nothing
  // of the version is mounted meanwhile, so no audio, comments or live stream is asked for.
  if (shared.isError && isLockedAnswer(shared.error)) return <UnlockVersion hash={hash} />;
  if (shared.isError || isExpired(shared.data.link.expires_at)) {
    const message = shared.isError ? lookupFailure(shared.error) : SHARE_MESSAGES.linkExpired;
    return <LinkFailure title="Shared version" message={message} />;
  }
  return <SharedVersionView hash={hash} shared={shared.data} />;
}

function UnlockVersion({ hash }: { hash: string }) {
  const unlock = useUnlockShareLink(hash);
  return <LinkPasswordForm unlock={unlock} what="the shared version" />;
}

function SharedVersionView({ hash, shared }: { hash: string; shared: SharedVersion }) {
  const player = useAudioPlayer();
  const track = useMemo(() => sharedTrack(hash, shared), [hash, shared]);
  const current = player.isCurrent(track);
  const currentTime = usePlayerPosition(current);
  const playing = current && player.state.isPlaying;
  const seekTo = useSeekToTime(track);
  const { playRange } = usePlayRange(track);
  const comments = useLinkComments(hash);
  const addComment = useAddLinkComment(hash);
  // New comments and replies, and the review status, arrive without a reload.
  useShareLiveEvents(hash);
  const [replyingTo, setReplyingTo] = useState<Comment | null>(null);
  // One name for commenting and reviewing, remembered on this device.
  const visitor = useVisitorName();
  const [selection, setSelection] = useState<TimeRange | null>(null);
  const [preset, setPreset] = useState<CommentPreset | null>(null);
  const [highlightId, setHighlightId] = useState<string | null>(null);
  const { version, project, link } = shared;
  // Without download rights the link streams only renditions, made by processing.
  const ready = version.audio_ready;

  // Load the version into the player, paused, unless something else is playing right now.
  const { playTrack } = player;
  const busyElsewhere = player.state.isPlaying && !current;
  const hasTrack = player.state.currentTrack !== null;
  useEffect(() => {
    if (ready && !busyElsewhere && !hasTrack) playTrack(track, { shouldPlay: false });
    // Only on arrival (or once processing is done): pausing or switching later is the
    // visitor's choice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [track.id, ready]);

  const duration =
    track.duration ?? (current && player.state.duration > 0 ? player.state.duration : 0);
  const startComment = useCallback((start: number, end: number | null) => {
    setSelection(end === null ? null : { start, end });
    setPreset({ start, end, nonce: Date.now() });
  }, []);
  const cancel = useCallback(() => {
    setSelection(null);
    setPreset(null);
  }, []);
  useCommentKey({
    enabled: ready,
    onComment: () => startComment(current ? player.position.get() : 0, null),
    onCancel: cancel,
  });

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-indigo-700 dark:text-indigo-300">
            Version {version.version_number}
            <ReviewStatusBadge status={version.review.status} />
          </p>
          <h1 className="mt-1 text-2xl font-bold break-words">{project.name}</h1>
          <p className="mt-1 break-words whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">
            {version.message ? version.message : 'No message'}
          </p>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            Uploaded <time dateTime={version.created_at}>{formatDateTime(version.created_at)}</time>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            className={primaryButton}
            disabled={!ready}
            onClick={() => (playing ? player.pause() : player.playTrack(track))}
          >
            {playing ? 'Pause' : 'Play'}
          </button>
          <ListenIn qualities={version.qualities} />
          {link.download_enabled ? (
            <a href={sharedDownloadUrl(hash)} download className={secondaryButton}>
              Download
            </a>
          ) : null}
          {link.download_enabled ? <ExportComments source={{ hash }} /> : null}
        </div>
      </div>
      <div className="mt-3">
        <RequestAccess target={{ kind: 'version', hash }} projectName={project.name} />
      </div>
      <p
        role="status"
        data-testid="share-audio-status"
        className="mt-2 text-sm text-zinc-600 dark:text-zinc-300"
      >
        {ready
          ? ''
          : version.status === 'failed'
            ? 'This version could not be processed, so it cannot be played.'
            : 'This version is still being processed. It will play as soon as it is ready.'}
      </p>

      <div className="mt-4 grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-start">
        <div className="min-w-0 space-y-4">
          <ReviewWaveform
            peaks={ready ? (version.waveform_data?.peaks ?? []) : []}
            duration={duration}
            currentTime={current ? currentTime : null}
            comments={comments.data ?? []}
            selection={selection}
            onSeek={seekTo}
            onSelectRange={(range) => startComment(range.start, range.end)}
            onOpenComment={(comment) => {
              setHighlightId(comment.id);
              if (comment.timestamp !== null) seekTo(comment.timestamp);
            }}
            onPlayRange={playRange}
            label={`Waveform of ${project.name}, Version ${version.version_number}`}
            placeholder={
              version.status === 'failed'
                ? 'This version could not be processed.'
                : 'The waveform appears when processing is done.'
            }
          />
          <p className="text-xs text-zinc-600 dark:text-zinc-300">
            Tap to play from a moment; drag across the waveform to comment on a passage, or press C
            to comment at the current time.
          </p>
          {link.allow_approval ? (
            <VisitorReview hash={hash} review={version.review} visitorName={visitor[0]} />
          ) : null}
        </div>

        <section aria-labelledby="share-comments-heading" className="min-w-0">
          <h2 id="share-comments-heading" className="text-lg font-semibold">
            Comments
          </h2>
          <div className="mt-3">
            <CommentList
              comments={comments.data}
              isPending={comments.isPending}
              error={comments.error}
              onSeek={seekTo}
              onReply={setReplyingTo}
              view={{ onPlayRange: playRange, highlightId }}
            />
          </div>
          <div className="mt-6">
            <VisitorCommenting
              track={track}
              onPost={(body) => addComment.mutateAsync(body)}
              pending={addComment.isPending}
              error={addComment.error}
              replyingTo={replyingTo}
              onCancelReply={() => setReplyingTo(null)}
              preset={preset}
              onPresetCleared={cancel}
              visitor={visitor}
            />
          </div>
        </section>
      </div>
    </div>
  );
}

const LISTEN_IN_LABELS = {
  standard: 'Standard',
  high: 'High',
  lossless: 'Lossless',
  original: 'Original',
} as const;

/**
 * 'Listen in: Standard / High / Lossless': the qualities the link streams now (Lossless, or
 * Original for a lossy original, only where downloads are allowed). The player keeps the
 * position when it changes.
 */
function ListenIn({ qualities }: { qualities: SharedVersion['version']['qualities'] }) {
  const player = useAudioPlayer();
  const id = useId();
  if (qualities.length < 2) return null;
  const chosen =
    qualities.find((q) => q === player.quality) ??
    (player.quality === 'auto' ? 'auto' : qualities[0]);
  return (
    <span className="inline-flex items-center gap-2 text-sm">
      <label htmlFor={id}>Listen in</label>
      <select
        id={id}
        value={chosen}
        onChange={(event) => player.setQuality(event.target.value as AudioQuality)}
        className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
      >
        {chosen === 'auto' ? <option value="auto">Automatic</option> : null}
        {qualities.map((q) => (
          <option key={q} value={q}>
            {LISTEN_IN_LABELS[q]}
          </option>
        ))}
      </select>
    </span>
  );
}

/**
 * 'Allow approval': the listener sets the review status under the name they comment with (a
 * signed-in listener under their account).
 */
function VisitorReview({
  hash,
  review,
  visitorName,
}: {
  hash: string;
  review: ReviewState;
  visitorName: string;
}) {
  const auth = useAuth();
  const setReview = useSetLinkReview(hash);
  const signedIn = auth.status === 'signed-in';
  const named = signedIn || visitorName.trim() !== '';
  return (
    <fieldset className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <legend className="px-1 text-sm font-semibold">Your review</legend>
      <div className="flex flex-wrap gap-2">
        {REVIEW_STATUSES.map((status) => (
          <button
            key={status}
            type="button"
            aria-pressed={review.status === status}
            disabled={!named || setReview.isPending}
            onClick={() =>
              setReview.mutate({ status, ...(signedIn ? {} : { visitor_name: visitorName }) })
            }
            className={review.status === status ? primaryButton : secondaryButton}
          >
            {REVIEW_STATUS_LABELS[status]}
          </button>
        ))}
      </div>
      <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-300">
        {named
          ? review.changed_by && review.changed_at
            ? `${REVIEW_STATUS_LABELS[review.status]} by ${review.changed_by} · ${formatDateTime(review.changed_at)}`
            : 'Mark this version Approved or Changes requested.'
          : 'Please set your name before reviewing'}
      </p>
      {setReview.error ? (
        <Alert tone="error">{errorMessage(setReview.error, setReview.error.message)}</Alert>
      ) : null}
    </fieldset>
  );
}
