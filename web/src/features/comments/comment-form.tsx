import { COMMENT_MAX_LENGTH, type Comment } from '@takes/contract';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { inputClass } from '../../ui/text-field';
import { linkButton, primaryButton, secondaryButton } from '../../ui/button-styles';
import { Alert } from '../../ui/alert';
import { formatTime } from '../player/format-time';
import { useAudioPlayer, type PlayerTrack } from '../player/use-audio-player';

export interface CommentDraft {
  content: string;
  /** Seconds into the version, or null when no time is attached. */
  timestamp: number | null;
  /** The end of a passage (a range comment); only sent when there is one. */
  end_timestamp?: number;
  parent_id: string | null;
  /** Only where the form offers 'Team only' (the team's own view), never on a share page. */
  team_only?: boolean;
}

/**
 * A time or passage the page hands the form: the waveform's drag (a range) or the `C` key (the
 * current time). A new `nonce` applies it again (the same time twice is two requests).
 */
export interface CommentPreset {
  start: number;
  end: number | null;
  nonce: number;
}

interface CommentFormProps {
  /** A time or passage to comment on, set from outside the form (focuses the text). */
  preset?: CommentPreset | null;
  /** The form let go of the preset (removed, posted, or Esc): the page clears its selection. */
  onPresetCleared?: () => void;
  /** The version being discussed; 'Attach current time' reads the player only while it plays it. */
  track: PlayerTrack | null;
  /** Resolves when the comment is saved; a rejection keeps the draft and shows the message. */
  onSubmit: (draft: CommentDraft) => Promise<void>;
  pending: boolean;
  error: string | null;
  replyingTo?: Comment | null;
  onCancelReply?: () => void;
  /** Offer the 'Team only' checkbox (the signed-in team's view; never a share page). */
  allowTeamOnly?: boolean;
}

/** Comment text (required, at most 5000 characters) with an optional playback time. */
export function CommentForm({
  track,
  onSubmit,
  pending,
  error,
  replyingTo = null,
  onCancelReply,
  allowTeamOnly = false,
  preset = null,
  onPresetCleared,
}: CommentFormProps) {
  const player = useAudioPlayer();
  const [content, setContent] = useState('');
  const latestContent = useRef(content);
  useEffect(() => {
    latestContent.current = content;
  }, [content]);
  const [timestamp, setTimestamp] = useState<number | null>(null);
  const [end, setEnd] = useState<number | null>(null);
  const [teamOnly, setTeamOnly] = useState(false);
  // A reply to a team-only comment is team-only too (the server makes it so either way).
  const inheritsTeamOnly = replyingTo?.team_only === true;
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const counterId = `${id}-counter`;
  const trackIsCurrent = track !== null && player.isCurrent(track);
  const blank = content.trim().length === 0;

  // A passage dragged on the waveform, or `C`: the time goes on the draft, the cursor in the text.
  useEffect(() => {
    if (!preset) return;
    setTimestamp(Math.round(preset.start * 10) / 10);
    setEnd(preset.end === null ? null : Math.round(preset.end * 10) / 10);
    textareaRef.current?.focus();
  }, [preset]);

  function clearTime() {
    setTimestamp(null);
    setEnd(null);
    onPresetCleared?.();
  }

  // Starting a reply puts the cursor where the reply is written.
  useEffect(() => {
    if (replyingTo) textareaRef.current?.focus();
  }, [replyingTo]);

  function attachCurrentTime() {
    // Tenths of a second: precise enough to land on a note, short enough to read.
    setTimestamp(Math.round(player.position.get() * 10) / 10);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (blank || pending) return;
    const sent = content;
    try {
      await onSubmit({
        content: content.trim(),
        timestamp,
        ...(timestamp !== null && end !== null ? { end_timestamp: end } : {}),
        parent_id: replyingTo?.id ?? null,
        ...(allowTeamOnly ? { team_only: teamOnly || inheritsTeamOnly } : {}),
      });
      // The list may show the comment a moment before this runs: if the next comment is already
      // being written, leave it (and its options) alone.
      if (latestContent.current !== sent) return;
      setContent('');
      clearTime();
      setTeamOnly(false);
      onCancelReply?.();
    } catch {
      // The caller shows the error; the draft stays so nothing typed is lost.
    }
  }

  const label = replyingTo ? `Reply to ${replyingTo.author}` : 'Comment';

  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-2" aria-label={label}>
      {replyingTo ? (
        <div className="flex flex-wrap items-center gap-2 text-sm text-zinc-600 dark:text-zinc-300">
          <span>
            Replying to <span className="font-semibold">{replyingTo.author}</span>
          </span>
          <button type="button" className={linkButton} onClick={() => onCancelReply?.()}>
            Cancel reply
          </button>
        </div>
      ) : null}
      <label htmlFor={`${id}-content`} className="sr-only">
        {label}
      </label>
      <textarea
        ref={textareaRef}
        id={`${id}-content`}
        value={content}
        onChange={(event) => setContent(event.target.value)}
        maxLength={COMMENT_MAX_LENGTH}
        rows={3}
        required
        placeholder={replyingTo ? 'Write a reply…' : 'Add a comment…'}
        onKeyDown={(event) => {
          // Esc cancels the comment being started at a time or passage.
          if (event.key === 'Escape' && timestamp !== null) {
            event.preventDefault();
            clearTime();
            event.currentTarget.blur();
          }
        }}
        aria-describedby={counterId}
        className={`${inputClass} border-zinc-300 dark:border-zinc-700`}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {timestamp === null ? (
            <button
              type="button"
              className={secondaryButton}
              disabled={!trackIsCurrent}
              title={trackIsCurrent ? undefined : 'Play this version to attach a time'}
              onClick={() => {
                setEnd(null);
                attachCurrentTime();
              }}
            >
              Attach current time
            </button>
          ) : (
            <span
              data-testid="comment-time"
              className="inline-flex items-center gap-2 rounded-full bg-indigo-50 px-3 py-1 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200"
            >
              <span>
                At{' '}
                <span className="font-mono tabular-nums">
                  {end === null
                    ? formatTime(timestamp)
                    : `${formatTime(timestamp)}–${formatTime(end)}`}
                </span>
              </span>
              <button
                type="button"
                className={linkButton}
                aria-label={`Remove time ${end === null ? formatTime(timestamp) : `${formatTime(timestamp)}–${formatTime(end)}`}`}
                onClick={clearTime}
              >
                Remove
              </button>
            </span>
          )}
          {allowTeamOnly ? (
            <span className="inline-flex items-center gap-2">
              <input
                id={`${id}-team-only`}
                type="checkbox"
                checked={teamOnly || inheritsTeamOnly}
                disabled={inheritsTeamOnly}
                onChange={(event) => setTeamOnly(event.target.checked)}
                aria-describedby={`${id}-team-only-hint`}
                className="size-4 accent-indigo-600"
              />
              <label htmlFor={`${id}-team-only`} className="text-zinc-700 dark:text-zinc-300">
                Team only
              </label>
              <span id={`${id}-team-only-hint`} className="sr-only">
                {inheritsTeamOnly
                  ? 'Replies to a team-only comment are team-only too.'
                  : 'Never shown to listeners on share links.'}
              </span>
            </span>
          ) : null}
          <span
            id={counterId}
            className={`text-xs tabular-nums ${content.length >= COMMENT_MAX_LENGTH ? 'text-red-600 dark:text-red-400' : 'text-zinc-500 dark:text-zinc-400'}`}
          >
            {content.length}/{COMMENT_MAX_LENGTH}
          </span>
        </div>
        <button type="submit" className={primaryButton} disabled={blank || pending}>
          {pending ? 'Posting…' : replyingTo ? 'Post Reply' : 'Post Comment'}
        </button>
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
    </form>
  );
}
