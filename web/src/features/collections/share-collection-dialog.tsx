import {
  COLLECTION_LINK_MESSAGES,
  COLLECTION_LINK_NAME_MAX,
  COLLECTION_LINK_PASSWORD_MAX,
  COLLECTION_LINK_PASSWORD_MIN,
  COLLECTION_LINK_RECIPIENTS_MAX,
  createCollectionLinkBodySchema,
  type CollectionLink,
  type CreateCollectionLinkBody,
} from '@takes/contract';
import { useEffect, useId, useRef, useState, type FormEvent, type Ref } from 'react';
import { errorMessage } from '../../lib/api';
import { pluralize } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { Modal } from '../../ui/modal';
import { PasswordField } from '../../ui/password-field';
import { inputClass, TextField } from '../../ui/text-field';
import { CheckboxField, ExpiryDateField, expiryFromDate } from '../share/link-fields';
import { useCreateCollectionLinks } from './collection-links-api';

/** A copy button reads 'Copied!' this long (as in Quick Share). */
export const COPIED_MS = 2000;

export const TOO_MANY_RECIPIENTS = `Add at most ${COLLECTION_LINK_RECIPIENTS_MAX} recipients at a time.`;

export function badEmailLine(line: number): string {
  return `Line ${line}: that email address does not look right.`;
}

/** The server's own rule for a recipient's address, so both sides refuse the same ones. */
const recipientEmail = createCollectionLinkBodySchema.shape.recipients.unwrap().element.shape.email;

export interface Recipient {
  name: string;
  email?: string;
}

export interface ParsedRecipients {
  /** The lines that read right, in order. */
  recipients: Recipient[];
  /** One message per line that does not, in the product's words ('Line 3: …'). */
  errors: string[];
  /** Lines with anything on them, right or not. */
  lines: number;
}

/**
 * Reads the recipients box: one recipient a line, as `Name <email>`, `Name, email` or just
 * `Name`; blank lines are skipped. Line numbers count every line, as the box shows them.
 */
export function parseRecipients(text: string): ParsedRecipients {
  const recipients: Recipient[] = [];
  const errors: string[] = [];
  let lines = 0;
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    lines += 1;
    const number = index + 1;
    let name: string;
    let email: string | null;
    const angled = /^(.*?)<([^<>]*)>$/.exec(line);
    if (angled) {
      // As mail programs write it: "Ana Silva" <ana@example.com>.
      name = (angled[1] ?? '')
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .trim();
      email = (angled[2] ?? '').trim();
    } else if (line.includes('<') || line.includes('>')) {
      errors.push(badEmailLine(number));
      return;
    } else if (line.includes(',')) {
      const comma = line.indexOf(',');
      name = line.slice(0, comma).trim();
      email = line.slice(comma + 1).trim() || null;
    } else if (/^[^\s@]+@\S+$/.test(line)) {
      // An address alone: the recipient still needs a name.
      name = '';
      email = line;
    } else {
      name = line;
      email = null;
    }
    if (!name) {
      errors.push(`Line ${number}: ${COLLECTION_LINK_MESSAGES.recipientNameRequired}`);
    } else if (name.length > COLLECTION_LINK_NAME_MAX) {
      errors.push(
        `Line ${number}: a recipient's name can be at most ${COLLECTION_LINK_NAME_MAX} characters.`,
      );
    } else if (email !== null && !recipientEmail.safeParse(email).success) {
      errors.push(badEmailLine(number));
    } else {
      recipients.push(email === null ? { name } : { name, email });
    }
  });
  if (recipients.length > COLLECTION_LINK_RECIPIENTS_MAX) errors.push(TOO_MANY_RECIPIENTS);
  return { recipients, errors, lines };
}

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

/** The whole link address, as a listener opens it. */
export function linkAddress(link: Pick<CollectionLink, 'url'>): string {
  return `${window.location.origin}${link.url}`;
}

export interface ShareCollectionDialogProps {
  collectionId: string;
  collectionName: string;
  onClose: () => void;
}

/**
 * 'Share collection': one private link, or one per recipient (each with its own key), with an
 * optional expiry, downloads, a password, and an email to each recipient who has an address.
 */
export function ShareCollectionDialog({
  collectionId,
  collectionName,
  onClose,
}: ShareCollectionDialogProps) {
  const create = useCreateCollectionLinks(collectionId);
  const [created, setCreated] = useState<{ links: CollectionLink[]; emailed: boolean } | null>(
    null,
  );
  const [formKey, setFormKey] = useState(0);

  return (
    <Modal
      title="Share collection"
      description={`Create a private link to “${collectionName}”, or one link for each recipient.`}
      onClose={onClose}
    >
      {created ? (
        <CreatedLinks
          links={created.links}
          emailRequested={created.emailed}
          onClose={onClose}
          onCreateAnother={() => {
            create.reset();
            setCreated(null);
            setFormKey((key) => key + 1);
          }}
        />
      ) : (
        <ShareForm
          key={formKey}
          focusOnMount={formKey > 0}
          collectionName={collectionName}
          pending={create.isPending}
          error={create.isError ? errorMessage(create.error, 'Failed to create the link') : null}
          onCancel={onClose}
          onSubmit={(body) =>
            create.mutate(body, {
              onSuccess: (links) => setCreated({ links, emailed: body.emailRecipients === true }),
            })
          }
        />
      )}
    </Modal>
  );
}

function ShareForm({
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
  const [expiryDate, setExpiryDate] = useState('');
  const [downloadEnabled, setDownloadEnabled] = useState(false);
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
      ...(expiresAt ? { expiresAt } : {}),
      downloadEnabled,
      ...(password ? { password } : {}),
      ...(withRecipients
        ? { recipients: parsed.recipients, emailRecipients: canEmail && emailRecipients }
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

function CreatedLinks({
  links,
  emailRequested,
  onClose,
  onCreateAnother,
}: {
  links: CollectionLink[];
  emailRequested: boolean;
  onClose: () => void;
  onCreateAnother: () => void;
}) {
  const [copiedId, setCopiedId] = useState<string | null>(null);
  const firstCopy = useRef<HTMLButtonElement>(null);
  const emailedCount = links.filter((link) => link.emailed).length;

  // The form that had focus is gone; copying a link is the next thing to do.
  useEffect(() => {
    firstCopy.current?.focus();
  }, []);

  useEffect(() => {
    if (!copiedId) return;
    const timer = setTimeout(() => setCopiedId(null), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copiedId]);

  return (
    <div className="space-y-4">
      <Alert tone="success">
        {links.length === 1 ? 'Link created.' : `${links.length} links created.`}
        {emailRequested && ` Emailed to ${pluralize(emailedCount, 'recipient', 'recipients')}.`}
      </Alert>
      <ul className="space-y-3">
        {links.map((link, index) => (
          <li key={link.id}>
            <CreatedLinkRow
              link={link}
              emailRequested={emailRequested}
              copied={copiedId === link.id}
              onCopied={() => setCopiedId(link.id)}
              copyRef={index === 0 ? firstCopy : undefined}
            />
          </li>
        ))}
      </ul>
      <p role="status" className="sr-only">
        {copiedId ? 'Link copied to the clipboard' : ''}
      </p>
      <div className="flex justify-end gap-2">
        <button type="button" className={secondaryButton} onClick={onClose}>
          Close
        </button>
        <button type="button" className={primaryButton} onClick={onCreateAnother}>
          Create another
        </button>
      </div>
    </div>
  );
}

function CreatedLinkRow({
  link,
  emailRequested,
  copied,
  onCopied,
  copyRef,
}: {
  link: CollectionLink;
  emailRequested: boolean;
  copied: boolean;
  onCopied: () => void;
  copyRef: Ref<HTMLButtonElement> | undefined;
}) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const url = linkAddress(link);
  const recipient = link.recipient;
  const label = recipient
    ? `${recipient.name}${recipient.email ? ` <${recipient.email}>` : ''}`
    : 'Share URL';

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      onCopied();
    } catch (error) {
      // Without clipboard permission, select the address so it can be copied by hand.
      console.error('Failed to copy share link:', error);
      inputRef.current?.select();
    }
  }

  return (
    <div>
      <label
        htmlFor={inputId}
        className="block text-sm font-medium break-words text-zinc-800 dark:text-zinc-200"
      >
        {label}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          ref={inputRef}
          id={inputId}
          type="text"
          readOnly
          value={url}
          onFocus={(event) => event.target.select()}
          className={`${inputClass} border-zinc-300 font-mono dark:border-zinc-700`}
        />
        <button ref={copyRef} type="button" className={secondaryButton} onClick={() => void copy()}>
          {copied ? 'Copied!' : 'Copy'}
          {recipient && <span className="sr-only"> link for {recipient.name}</span>}
        </button>
      </div>
      {emailRequested && recipient?.email && (
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          {link.emailed
            ? `Emailed to ${recipient.email}`
            : 'Not emailed: copy the link and send it yourself.'}
        </p>
      )}
    </div>
  );
}
