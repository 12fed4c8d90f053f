import {
  LINK_PASSWORD_MAX,
  LINK_PASSWORD_MESSAGES,
  LINK_PASSWORD_MIN,
  type ShareLink,
} from '@takes/contract';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { linkButton, primaryButton, secondaryButton } from '../../ui/button-styles';
import { TextField } from '../../ui/text-field';
import { useShareLinks, useUpdateLink } from './share-api';
import { linkPlaysText } from './link-plays';

/** Quick Share's list of this version's links, each with how often visitors played it. */
export function ShareLinksList({ versionId }: { versionId: string }) {
  const headingId = useId();
  const links = useShareLinks(versionId);
  const update = useUpdateLink(versionId);
  // Nothing to list (or it could not be read): the dialog is about creating one.
  if (!links.data || links.data.length === 0) return null;
  return (
    <section
      aria-labelledby={headingId}
      className="mt-6 border-t border-zinc-200 pt-4 dark:border-zinc-800"
    >
      <h3 id={headingId} className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
        Links to this version
      </h3>
      <ul className="mt-2 max-h-64 space-y-2 overflow-y-auto">
        {links.data.map((link) => (
          <li key={link.id} className="text-sm">
            <p className="font-medium break-words text-zinc-900 dark:text-zinc-100">
              {link.name}
              {link.has_password ? (
                <span className="ml-2 inline-block rounded-full bg-zinc-100 px-2 py-0.5 align-middle text-xs font-medium text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
                  Password
                </span>
              ) : null}
            </p>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              {linkPlaysText(link)} · created {formatDate(link.created_at)}
            </p>
            <label className="mt-1 inline-flex items-center gap-2 text-xs text-zinc-700 dark:text-zinc-300">
              <input
                type="checkbox"
                checked={link.allow_approval}
                disabled={update.isPending}
                onChange={(event) =>
                  update.mutate({ linkId: link.id, allow_approval: event.target.checked })
                }
                aria-label={`Allow approval on ${link.name}`}
                className="size-3.5 accent-indigo-600"
              />
              Allow approval
            </label>
            <LinkPassword versionId={versionId} link={link} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * A link's password, for its owner: 'Set password' (or 'Change password', which ends every
 * earlier unlock) opens a small form; 'Remove password' opens the link to anyone holding it.
 */
function LinkPassword({ versionId, link }: { versionId: string; link: ShareLink }) {
  const update = useUpdateLink(versionId);
  const [editing, setEditing] = useState(false);
  const [password, setPassword] = useState('');
  const [tooShort, setTooShort] = useState(false);
  // What the last change did, announced politely (the badge says it to the eye).
  const [done, setDone] = useState('');
  const toggleRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const formId = useId();

  useEffect(() => {
    if (editing) inputRef.current?.focus();
  }, [editing]);

  function open() {
    update.reset();
    setDone('');
    setPassword('');
    setTooShort(false);
    setEditing(true);
  }

  function close() {
    update.reset();
    setEditing(false);
    setPassword('');
    setTooShort(false);
    // The form is gone: back to the button that opened it.
    toggleRef.current?.focus();
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending) return;
    if (password.length < LINK_PASSWORD_MIN) {
      setTooShort(true);
      inputRef.current?.focus();
      return;
    }
    try {
      await update.mutateAsync({ linkId: link.id, password });
      close();
      setDone(link.has_password ? 'Password changed' : 'Password set');
    } catch {
      // The server's words show under the form; the field keeps the text for another try.
      inputRef.current?.focus();
    }
  }

  async function remove() {
    if (update.isPending) return;
    setEditing(false);
    setDone('');
    try {
      await update.mutateAsync({ linkId: link.id, password: null });
      setDone('Password removed');
      // 'Remove password' is gone with the password: on to 'Set password'.
      toggleRef.current?.focus();
    } catch {
      // Shown below.
    }
  }

  const failure = update.error
    ? errorMessage(update.error, 'The password could not be changed. Please try again.')
    : null;

  return (
    <div className="mt-1">
      <div className="flex flex-wrap items-center gap-3">
        <button
          ref={toggleRef}
          type="button"
          className={linkButton}
          aria-expanded={editing}
          aria-controls={editing ? formId : undefined}
          aria-label={`${link.has_password ? 'Change password' : 'Set password'} of ${link.name}`}
          onClick={() => (editing ? close() : open())}
        >
          {link.has_password ? 'Change password' : 'Set password'}
        </button>
        {link.has_password ? (
          <button
            type="button"
            className={linkButton}
            aria-label={`Remove password of ${link.name}`}
            aria-busy={update.isPending || undefined}
            onClick={() => void remove()}
          >
            Remove password
          </button>
        ) : null}
      </div>
      {editing ? (
        <form
          id={formId}
          aria-label={`Password of ${link.name}`}
          onSubmit={(event) => void save(event)}
          className="mt-2 space-y-2"
        >
          <TextField
            label={link.has_password ? 'New password' : 'Password'}
            type="password"
            value={password}
            onValueChange={(value) => {
              setPassword(value);
              setTooShort(false);
            }}
            inputRef={inputRef}
            autoComplete="new-password"
            maxLength={LINK_PASSWORD_MAX}
            error={tooShort ? LINK_PASSWORD_MESSAGES.tooShort : undefined}
            hint={
              link.has_password
                ? 'Listeners who unlocked the link must enter the new one.'
                : 'Listeners must enter it before they can see or hear anything.'
            }
          />
          <div className="flex gap-2">
            <button
              type="submit"
              className={primaryButton}
              disabled={update.isPending}
              aria-busy={update.isPending || undefined}
            >
              Save
            </button>
            <button type="button" className={secondaryButton} onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {failure ? (
        <Alert tone="error" className="mt-2">
          {failure}
        </Alert>
      ) : null}
      <p role="status" className="sr-only">
        {done}
      </p>
    </div>
  );
}
