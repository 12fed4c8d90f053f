import { VISITOR_NAME_MAX_LENGTH, type Comment } from '@takes/contract';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/api';
import { linkButton, primaryButton, secondaryButton } from '../../ui/button-styles';
import { TextField } from '../../ui/text-field';
import { useAuth } from '../auth/use-auth';
import { welcomeName } from '../auth/user-names';
import { CommentForm, type CommentDraft, type CommentPreset } from '../comments/comment-form';
import type { PlayerTrack } from '../player/use-audio-player';
import type { useVisitorName } from './visitor-name';

/** What a share page's listener posts: a comment, under their name unless signed in. */
export interface VisitorCommentBody {
  content: string;
  timestamp: number | null;
  end_timestamp?: number;
  parent_id: string | null;
  visitor_name?: string;
}

/** Name entry first, then the comment form (signed-in visitors comment under their account). */
export function VisitorCommenting({
  track,
  visitor,
  onPost,
  pending,
  error,
  replyingTo,
  onCancelReply,
  preset = null,
  onPresetCleared,
  suggestedName = null,
}: {
  /** What is being discussed: 'Attach current time' reads the player only while it plays it. */
  track: PlayerTrack | null;
  visitor: ReturnType<typeof useVisitorName>;
  /** Saves the comment; a rejection keeps the draft. */
  onPost: (body: VisitorCommentBody) => Promise<unknown>;
  pending: boolean;
  error: Error | null;
  replyingTo: Comment | null;
  onCancelReply: () => void;
  preset?: CommentPreset | null;
  onPresetCleared?: () => void;
  /** Offered in the name field when this device has no name yet (a recipient's name). */
  suggestedName?: string | null;
}) {
  const auth = useAuth();
  const [visitorName, setVisitorName] = visitor;
  const [editingName, setEditingName] = useState(false);
  const signedIn = auth.status === 'signed-in';
  const commenterName = signedIn ? welcomeName(auth.user) : visitorName;

  async function post(draft: CommentDraft) {
    await onPost({
      content: draft.content,
      timestamp: draft.timestamp,
      ...(draft.end_timestamp !== undefined ? { end_timestamp: draft.end_timestamp } : {}),
      parent_id: draft.parent_id,
      ...(signedIn ? {} : { visitor_name: visitorName }),
    });
  }

  if (!signedIn && (!visitorName || editingName)) {
    return (
      <NameEntry
        initial={visitorName || (suggestedName ?? '').slice(0, VISITOR_NAME_MAX_LENGTH)}
        onSet={(name) => {
          setVisitorName(name);
          setEditingName(false);
        }}
        onCancel={visitorName ? () => setEditingName(false) : undefined}
      />
    );
  }

  return (
    <div className="space-y-2">
      <p className="text-sm text-zinc-600 dark:text-zinc-300">
        Commenting as{' '}
        <span className="font-semibold text-zinc-900 dark:text-zinc-100">{commenterName}</span>
        {signedIn ? null : (
          <>
            {' '}
            <button type="button" className={linkButton} onClick={() => setEditingName(true)}>
              Change name
            </button>
          </>
        )}
      </p>
      <CommentForm
        track={track}
        onSubmit={post}
        pending={pending}
        error={error ? errorMessage(error, error.message) : null}
        replyingTo={replyingTo}
        onCancelReply={onCancelReply}
        preset={preset}
        onPresetCleared={onPresetCleared}
      />
    </div>
  );
}

function NameEntry({
  initial,
  onSet,
  onCancel,
}: {
  initial: string;
  onSet: (name: string) => void;
  onCancel: (() => void) | undefined;
}) {
  const [name, setName] = useState(initial);
  const blank = name.trim().length === 0;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!blank) onSet(name);
  }

  return (
    <form onSubmit={submit} className="space-y-2" aria-label="Set your name">
      <p className="text-sm text-zinc-600 dark:text-zinc-300">
        Enter your name to leave a comment.
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1 basis-56">
          <TextField
            label="Your name"
            value={name}
            onValueChange={setName}
            maxLength={VISITOR_NAME_MAX_LENGTH}
            autoComplete="name"
          />
        </div>
        <button type="submit" className={primaryButton} disabled={blank}>
          Set Name
        </button>
        {onCancel ? (
          <button type="button" className={secondaryButton} onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
