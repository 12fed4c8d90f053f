import {
  LINK_PASSWORD_MAX,
  LINK_PASSWORD_MESSAGES,
  LINK_PASSWORD_MIN,
  type ShareLink,
} from '@takes/contract';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { Modal } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { useCreateLink } from './share-api';
import { CopiedStatus, CopyLinkField, useCopied } from './copy-link-field';
import { CheckboxField, ExpiryDateField, expiryFromDate } from './link-fields';
import { expiryDateIn, useLinkDefaults } from './link-defaults';
import { ShareLinksList } from './share-links-list';

/** The form resets this long after the dialog closes (after its exit). */
export const RESET_AFTER_CLOSE_MS = 300;

export interface QuickShareDialogProps {
  open: boolean;
  onClose: () => void;
  versionId: string;
  projectName: string;
  versionNumber: number;
}

/** Quick Share: create a private link to one version and copy it. */
export function QuickShareDialog({
  open,
  onClose,
  versionId,
  projectName,
  versionNumber,
}: QuickShareDialogProps) {
  const defaultName = `${projectName} - Version ${versionNumber}`;
  const [name, setName] = useState(defaultName);
  // The instance's defaults for new links (set on /admin) are where the form starts.
  const defaults = useLinkDefaults();
  const startExpiry = expiryDateIn(defaults.expires_in_days);
  const [downloadEnabled, setDownloadEnabled] = useState(defaults.allow_downloads);
  const [listenersSeeEachOther, setListenersSeeEachOther] = useState(true);
  const [allowApproval, setAllowApproval] = useState(false);
  const [expiryDate, setExpiryDate] = useState(startExpiry);
  // Defaults that arrive after the dialog first drew replace the fallback, not the person's choice.
  useEffect(() => {
    setDownloadEnabled(defaults.allow_downloads);
    setExpiryDate(startExpiry);
  }, [defaults.allow_downloads, startExpiry]);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>(undefined);
  const passwordRef = useRef<HTMLInputElement>(null);
  const [link, setLink] = useState<ShareLink | null>(null);
  const [copied, setCopied] = useCopied<true>();
  const createLink = useCreateLink(versionId);
  const { reset: resetMutation } = createLink;
  const ids = useId();

  // Closing after a link exists resets the form a moment later.
  useEffect(() => {
    if (open || !link) return;
    const timer = setTimeout(() => {
      setLink(null);
      setName(defaultName);
      setDownloadEnabled(defaults.allow_downloads);
      setListenersSeeEachOther(true);
      setAllowApproval(false);
      setExpiryDate(startExpiry);
      setPassword('');
      setPasswordError(undefined);
      setCopied(null);
      resetMutation();
    }, RESET_AFTER_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [open, link, defaultName, resetMutation, setCopied, defaults.allow_downloads, startExpiry]);

  if (!open) return null;

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The server would refuse a short password: say so before sending anything.
    if (password !== '' && password.length < LINK_PASSWORD_MIN) {
      setPasswordError(LINK_PASSWORD_MESSAGES.tooShort);
      passwordRef.current?.focus();
      return;
    }
    try {
      const created = await createLink.mutateAsync({
        ...(name.trim() ? { name: name.trim() } : {}),
        download_enabled: downloadEnabled,
        expires_at: expiryFromDate(expiryDate),
        listeners_see_each_other: listenersSeeEachOther,
        allow_approval: allowApproval,
        ...(password !== '' ? { password } : {}),
      });
      setLink(created);
    } catch (error) {
      // Share link creation errors are logged only; the dialog shows no message.
      console.error('Failed to create share link:', error);
    }
  }

  function createAnother() {
    setLink(null);
    setName(defaultName);
    setDownloadEnabled(false);
    setListenersSeeEachOther(true);
    setExpiryDate('');
    setPassword('');
    setPasswordError(undefined);
    setCopied(null);
    createLink.reset();
  }

  return (
    <Modal title="Quick Share" description="Create a link to share this version" onClose={onClose}>
      {link ? (
        <CreatedLink
          url={`${window.location.origin}${link.url}`}
          hasPassword={link.has_password}
          copied={copied === true}
          onCopied={() => setCopied(true)}
          onClose={onClose}
          onCreateAnother={createAnother}
        />
      ) : (
        <form onSubmit={(event) => void create(event)} className="space-y-4">
          <TextField
            label="Link Name"
            value={name}
            onValueChange={setName}
            maxLength={200}
            placeholder={defaultName}
          />
          <CheckboxField
            id={`${ids}-download`}
            label="Allow Download"
            checked={downloadEnabled}
            onChange={setDownloadEnabled}
          />
          <CheckboxField
            id={`${ids}-listeners`}
            label="Listeners see each other's comments"
            checked={listenersSeeEachOther}
            onChange={setListenersSeeEachOther}
            hint="When off, people with this link see only comments made through it and the replies to them"
          />
          <CheckboxField
            id={`${ids}-approval`}
            label="Allow approval"
            checked={allowApproval}
            onChange={setAllowApproval}
            hint="People with this link can mark the version Approved or Changes requested; their name is recorded"
          />
          <ExpiryDateField id={`${ids}-expiry`} value={expiryDate} onChange={setExpiryDate} />
          <TextField
            label="Password (optional)"
            type="password"
            value={password}
            onValueChange={(value) => {
              setPassword(value);
              setPasswordError(undefined);
            }}
            inputRef={passwordRef}
            autoComplete="new-password"
            maxLength={LINK_PASSWORD_MAX}
            error={passwordError}
            hint="Listeners must enter it before they can see or hear anything."
          />
          <div className="flex justify-end gap-2">
            <button type="button" className={secondaryButton} onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className={primaryButton} disabled={createLink.isPending}>
              {createLink.isPending ? 'Creating...' : 'Create Link'}
            </button>
          </div>
        </form>
      )}
      <ShareLinksList versionId={versionId} />
    </Modal>
  );
}

function CreatedLink({
  url,
  hasPassword,
  copied,
  onCopied,
  onClose,
  onCreateAnother,
}: {
  url: string;
  /** The link asks for the password just set (which is never shown again). */
  hasPassword: boolean;
  copied: boolean;
  onCopied: () => void;
  onClose: () => void;
  onCreateAnother: () => void;
}) {
  const copyRef = useRef<HTMLButtonElement>(null);

  // The form that had focus is gone; the copy button is the next thing to do.
  useEffect(() => {
    copyRef.current?.focus();
  }, []);

  return (
    <div className="space-y-4">
      <CopyLinkField
        label="Share URL"
        url={url}
        copied={copied}
        onCopied={onCopied}
        buttonRef={copyRef}
      >
        <CopiedStatus copied={copied} />
        {hasPassword ? (
          <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
            This link asks for the password you set. Send it to your listeners separately; it is not
            shown again.
          </p>
        ) : null}
      </CopyLinkField>
      <div className="flex justify-end gap-2">
        <button type="button" className={secondaryButton} onClick={onClose}>
          Close
        </button>
        <button type="button" className={primaryButton} onClick={onCreateAnother}>
          Create Another
        </button>
      </div>
    </div>
  );
}
