import { BLIND_TEST_MODE_LABELS, BLIND_TEST_NOTE_MAX } from '@takes/contract';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api';
import { Alert } from '../../../ui/alert';
import { primaryButton, secondaryButton } from '../../../ui/button-styles';
import { inputClass } from '../../../ui/text-field';
import { useBlindVote, type BlindListenerPage } from './blind-listener-api';
import { BlindTransport } from './blind-transport';
import { useBlindPlayer } from './use-blind-player';

export interface ListenerPart {
  hash: string;
  page: BlindListenerPage;
  /** Whether this part's audio is kept now (one part's at a time). */
  engaged: boolean;
  onEngage: () => void;
  /** The listener's name, or null (and the name field says why) when there is none yet. */
  requireName: () => string | null;
  /** The name an action was sent with: it is remembered on this device. */
  onNamed: (name: string) => void;
}

/** 'Which do you prefer?': the letters on one transport, then the vote (again: it replaces). */
export function PreferencePart({
  hash,
  page,
  engaged,
  onEngage,
  requireName,
  onNamed,
}: ListenerPart) {
  const player = useBlindPlayer(page.options, {
    engaged,
    onEngage,
    knownDuration: page.duration,
  });
  const vote = useBlindVote(hash);
  const [editing, setEditing] = useState(false);
  const [choice, setChoice] = useState(page.vote?.option_id ?? '');
  const [note, setNote] = useState(page.vote?.note ?? '');
  const headingId = useId();
  const questionId = useId();
  const noteId = useId();
  const votedLetter = page.options.find((option) => option.id === page.vote?.option_id)?.letter;
  const showForm = page.vote === null || votedLetter === undefined || editing;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = requireName();
    if (name === null || choice === '' || vote.isPending) return;
    try {
      await vote.mutateAsync({ name, option_id: choice, note: note.trim() || null });
      onNamed(name);
      setEditing(false);
    } catch {
      // The error is shown under the form.
    }
  }

  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <h2 id={headingId} className="text-lg font-semibold">
        {BLIND_TEST_MODE_LABELS.preference}
      </h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-300">
        Switch between the letters as often as you like while it plays, then vote for the one you
        prefer.
      </p>
      <BlindTransport player={player} label="Options" />
      <div aria-live="polite">
        {showForm ? null : (
          <div className="space-y-3">
            <p className="font-medium">
              Thanks, {page.listener_name}: your vote for {votedLetter} is in.
            </p>
            <button type="button" className={secondaryButton} onClick={() => setEditing(true)}>
              Change vote
            </button>
          </div>
        )}
      </div>
      {showForm ? (
        <form onSubmit={(event) => void submit(event)} className="space-y-4">
          <fieldset role="radiogroup" aria-labelledby={questionId}>
            <legend id={questionId} className="text-sm font-medium">
              Which do you prefer?
            </legend>
            <div className="mt-2 flex flex-wrap gap-2">
              {page.options.map((option) => (
                <label
                  key={option.id}
                  className="inline-flex min-w-16 cursor-pointer items-center gap-2 rounded-md border border-zinc-300 px-3 py-2 text-sm font-semibold has-checked:border-indigo-600 has-checked:bg-indigo-50 dark:border-zinc-700 dark:has-checked:bg-indigo-950/40"
                >
                  <input
                    type="radio"
                    name={`${headingId}-choice`}
                    value={option.id}
                    checked={choice === option.id}
                    onChange={() => setChoice(option.id)}
                    className="size-4 accent-indigo-600"
                  />
                  {option.letter}
                </label>
              ))}
            </div>
          </fieldset>
          <div>
            <p className="flex items-baseline gap-2 text-sm">
              <label htmlFor={noteId} className="font-medium">
                Note
              </label>
              <span id={`${noteId}-hint`} className="text-zinc-600 dark:text-zinc-300">
                Optional
              </span>
            </p>
            <textarea
              id={noteId}
              aria-describedby={`${noteId}-hint`}
              value={note}
              onChange={(event) => setNote(event.target.value)}
              maxLength={BLIND_TEST_NOTE_MAX}
              rows={3}
              className={`${inputClass} mt-1 border-zinc-300 dark:border-zinc-700`}
            />
          </div>
          {vote.error ? (
            <Alert tone="error">
              {errorMessage(vote.error, 'Your vote could not be sent. Please try again.')}
            </Alert>
          ) : null}
          <button
            type="submit"
            className={primaryButton}
            disabled={choice === '' || vote.isPending}
            aria-busy={vote.isPending || undefined}
          >
            Vote
          </button>
        </form>
      ) : null}
    </section>
  );
}
