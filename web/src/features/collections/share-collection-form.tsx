import {
  COLLECTION_LINK_MESSAGES,
  COLLECTION_LINK_NAME_MAX,
  COLLECTION_LINK_PASSWORD_MAX,
  COLLECTION_LINK_PASSWORD_MIN,
  type CreateCollectionLinkBody,
} from '@takes/contract';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { pluralize } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { PasswordField } from '../../ui/password-field';
import { inputClass, TextField } from '../../ui/text-field';
import { expiryDateIn, useLinkDefaults } from '../share/link-defaults';
import { CheckboxField, ExpiryDateField, expiryFromDate } from '../share/link-fields';
import { parseRecipients } from './recipients';

function nameError(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return COLLECTION_LINK_MESSAGES.nameRequired;
  if (trimmed.length > COLLECTION_LINK_NAME_MAX) return COLLECTION_LINK_MESSAGES.nameTooLong;
  return undefined;
}

function passwordError(password: string): string | undefined {
  if (!password) return undefined;
  if (password.length < COLLECTION_LINK_PASSWORD_MIN)
    return COLLECTION_LINK_MESSAGES.passwordTooShort;
  if (password.length > COLLECTION_LINK_PASSWORD_MAX)
    return COLLECTION_LINK_MESSAGES.passwordTooLong;
  return undefined;
}

/**
 * The 'Share collection' form: the link's name, expiry, downloads and password, and optional
 * recipients (one link each), checked here in the server's words before anything is sent.
 */
export function ShareCollectionForm({
  focusOnMount,
  collectionName,
  pending,
  error,
  onCancel,
  onSubmit,
}: {
  focusOnMount: boolean;
  collectionName: string;
  pending: boolean;
  error: string | null;
  onCancel: () => void;
  onSubmit: (body: CreateCollectionLinkBody) => void;
}) {
  const ids = useId();
  const [name, setName] = useState(collectionName);
  // The instance's defaults for new links (set on /admin) are where the form starts.
  const defaults = useLinkDefaults();
  const startExpiry = expiryDateIn(defaults.expires_in_days);
  const [expiryDate, setExpiryDate] = useState(startExpiry);
  const [downloadEnabled, setDownloadEnabled] = useState(defaults.allow_downloads);
  useEffect(() => {
    setDownloadEnabled(defaults.allow_downloads);
    setExpiryDate(startExpiry);
  }, [defaults.allow_downloads, startExpiry]);
  const [password, setPassword] = useState('');
  const [recipientsText, setRecipientsText] = useState('');
  const [emailRecipients, setEmailRecipients] = useState(false);
  // Problems show once a submit was tried, then follow the fields as they change.
  const [checked, setChecked] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const recipientsRef = useRef<HTMLTextAreaElement>(null);

  // A fresh form ('Create another') starts on the link name. On opening the dialog does that
  // itself, after noting where focus was to give it back on close.
  useEffect(() => {
    if (focusOnMount) nameRef.current?.focus();
  }, [focusOnMount]);

  const parsed = parseRecipients(recipientsText);
  const canEmail = parsed.recipients.some((recipient) => recipient.email);
  const problems = {
    name: nameError(name),
    password: passwordError(password),
    recipients: parsed.errors,
  };
  const shown = checked ? problems : { name: undefined, password: undefined, recipients: [] };
  const several = parsed.lines > 1;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setChecked(true);
    // The first field with a problem takes focus; nothing is sent.
    const invalid = problems.name
      ? nameRef
      : problems.password
        ? passwordRef
        : problems.recipients.length > 0
          ? recipientsRef
          : null;
    if (invalid) {
      invalid.current?.focus();
      return;
    }
    const expiresAt = expiryFromDate(expiryDate);
    const withRecipients = parsed.recipients.length > 0;
    onSubmit({
      name: name.trim(),
      ...(expiresAt ? { expires_at: expiresAt } : {}),
      download_enabled: downloadEnabled,
      ...(password ? { password } : {}),
      ...(withRecipients
        ? { recipients: parsed.recipients, email_recipients: canEmail && emailRecipients }
        : {}),
    });
  }

  const recipientsHintId = `${ids}-recipients-hint`;
  const recipientsErrorId = `${ids}-recipients-error`;
  const emailHintId = `${ids}-email-hint`;

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <TextField
        label="Link name"
        value={name}
        onValueChange={setName}
        error={shown.name}
        inputRef={nameRef}
        required
        autoComplete="off"
        maxLength={COLLECTION_LINK_NAME_MAX + 50}
      />
      <ExpiryDateField id={`${ids}-expiry`} value={expiryDate} onChange={setExpiryDate} />
      <CheckboxField
        id={`${ids}-download`}
        label="Allow downloads"
        checked={downloadEnabled}
        onChange={setDownloadEnabled}
      />
      <PasswordField
        label="Password (optional)"
        value={password}
        onValueChange={setPassword}
        error={shown.password}
        inputRef={passwordRef}
        autoComplete="new-password"
        hint={`At least ${COLLECTION_LINK_PASSWORD_MIN} characters. Listeners need it to open the link.`}
      />
      <fieldset className="space-y-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
        <legend className="px-1 text-sm font-semibold text-zinc-900 dark:text-zinc-100">
          Add recipients <span className="font-normal text-zinc-500">(optional)</span>
        </legend>
        <div>
          <label
            htmlFor={`${ids}-recipients`}
            className="block text-sm font-medium text-zinc-800 dark:text-zinc-200"
          >
            Recipients
          </label>
          <textarea
            ref={recipientsRef}
            id={`${ids}-recipients`}
            value={recipientsText}
            onChange={(event) => setRecipientsText(event.target.value)}
            rows={4}
            spellCheck={false}
            placeholder={'Ana Silva <ana@example.com>\nBen, ben@example.com\nCleo'}
            aria-invalid={shown.recipients.length > 0 ? true : undefined}
            aria-describedby={
              shown.recipients.length > 0
                ? `${recipientsErrorId} ${recipientsHintId}`
                : recipientsHintId
            }
            className={`${inputClass} mt-1 font-mono ${
              shown.recipients.length > 0
                ? 'border-red-500 dark:border-red-500'
                : 'border-zinc-300 dark:border-zinc-700'
            }`}
          />
          {shown.recipients.length > 0 && (
            <ul
              id={recipientsErrorId}
              className="mt-1 space-y-0.5 text-sm text-red-600 dark:text-red-400"
            >
              {shown.recipients.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          )}
          <p id={recipientsHintId} className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
            One a line: <span className="font-mono">Name &lt;email&gt;</span>,{' '}
            <span className="font-mono">Name, email</span> or just a name. Each recipient gets a
            link of their own.
            {parsed.recipients.length > 0 &&
              ` ${pluralize(parsed.recipients.length, 'recipient', 'recipients')} so far.`}
          </p>
        </div>
        <div>
          <div className="flex items-center gap-2">
            <input
              id={`${ids}-email`}
              type="checkbox"
              checked={canEmail && emailRecipients}
              disabled={!canEmail}
              onChange={(event) => setEmailRecipients(event.target.checked)}
              aria-describedby={emailHintId}
              className="size-4 accent-indigo-600 disabled:opacity-50"
            />
            <label
              htmlFor={`${ids}-email`}
              className={`text-sm font-medium ${
                canEmail ? 'text-zinc-800 dark:text-zinc-200' : 'text-zinc-500 dark:text-zinc-400'
              }`}
            >
              Email each recipient their link
            </label>
          </div>
          <p id={emailHintId} className="mt-1 ml-6 text-xs text-zinc-500 dark:text-zinc-400">
            {canEmail
              ? 'Only recipients with an email address get one.'
              : 'Give a recipient an email address to email them their link.'}
          </p>
        </div>
      </fieldset>
      {error && <Alert tone="error">{error}</Alert>}
      <div className="flex justify-end gap-2">
        <button type="button" className={secondaryButton} onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className={primaryButton} disabled={pending}>
          {pending ? 'Creating...' : several ? 'Create links' : 'Create link'}
        </button>
      </div>
    </form>
  );
}
