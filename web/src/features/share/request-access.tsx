import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { ACCESS_REQUEST_MESSAGES, ACCESS_REQUEST_NOTE_MAX_LENGTH, routes } from '@takes/contract';
import { api, errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { useAuth } from '../auth/use-auth';

const requests = routes.accessRequests;

/** The query a page comes back with after signing in to ask: the form opens at once. */
export const REQUEST_ACCESS_PARAM = 'request_access';

/** What the request is about: a version link, or the item of a collection link being heard. */
export type AccessTarget =
  { kind: 'version'; hash: string } | { kind: 'collection'; hash: string; itemId: string };

/**
 * 'Request access' on a share page: a signed-in listener asks the project's owner to join, with
 * an optional note; a signed-out one is offered sign-in or sign-up first and comes back here with
 * the form open (the share entry is its own app, so the way back travels as `?next=`).
 */
export function RequestAccess({
  target,
  projectName,
}: {
  target: AccessTarget;
  projectName: string;
}) {
  const auth = useAuth();
  const location = useLocation();
  const comingBack = new URLSearchParams(location.search).has(REQUEST_ACCESS_PARAM);
  const [open, setOpen] = useState(comingBack);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string>();
  const noteId = useId();
  const send = useMutation({
    mutationFn: (body: { note?: string }) =>
      target.kind === 'version'
        ? api.call(requests.requestAccessFromLink, {
            params: { hash: target.hash },
            body,
            fallbackMessage: 'Failed to send the request',
          })
        : api.call(requests.requestAccessFromCollectionLink, {
            params: { hash: target.hash },
            body: { ...body, item_id: target.itemId },
            fallbackMessage: 'Failed to send the request',
          }),
  });

  if (auth.status === 'loading') return null;

  if (!open)
    return (
      <button type="button" className={secondaryButton} onClick={() => setOpen(true)}>
        {ACCESS_REQUEST_MESSAGES.button}
      </button>
    );

  if (auth.status === 'signed-out') {
    const back = new URLSearchParams(location.search);
    back.set(REQUEST_ACCESS_PARAM, '1');
    const next = encodeURIComponent(`${location.pathname}?${back.toString()}`);
    return (
      <div className="space-y-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          {ACCESS_REQUEST_MESSAGES.signInFirst}
        </p>
        <div className="flex flex-wrap gap-2">
          <a href={`/login?next=${next}`} className={primaryButton}>
            Sign in
          </a>
          <a href={`/login?mode=sign-up&next=${next}`} className={secondaryButton}>
            Sign up
          </a>
        </div>
      </div>
    );
  }

  if (send.isSuccess) return <Alert tone="success">{ACCESS_REQUEST_MESSAGES.sent}</Alert>;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = note.trim();
    const problem =
      text.length > ACCESS_REQUEST_NOTE_MAX_LENGTH
        ? ACCESS_REQUEST_MESSAGES.noteTooLong
        : undefined;
    setNoteError(problem);
    if (problem) return;
    send.mutate(text ? { note: text } : {});
  }

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label={ACCESS_REQUEST_MESSAGES.button}
      className="space-y-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800"
    >
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Ask the owner of <strong className="break-words">{projectName}</strong> to let you join.
      </p>
      <label
        htmlFor={noteId}
        className="block text-sm font-medium text-zinc-800 dark:text-zinc-200"
      >
        Note (optional)
      </label>
      <textarea
        id={noteId}
        rows={2}
        value={note}
        onChange={(event) => setNote(event.target.value)}
        aria-invalid={noteError ? true : undefined}
        className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-white"
      />
      {noteError && <p className="text-sm text-red-700 dark:text-red-400">{noteError}</p>}
      {send.isError && (
        <Alert tone="error">{errorMessage(send.error, 'Failed to send the request')}</Alert>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={primaryButton} disabled={send.isPending}>
          {send.isPending ? 'Sending…' : ACCESS_REQUEST_MESSAGES.button}
        </button>
        <button type="button" className={secondaryButton} onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
