import {
  UPLOAD_LINK_DEFAULT_DAYS,
  UPLOAD_LINK_DEFAULT_FILES,
  UPLOAD_LINK_MAX_DAYS,
  UPLOAD_LINK_MAX_FILES,
  UPLOAD_LINK_MESSAGES,
  UPLOAD_LINK_WORDS,
} from '@takes/contract';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/api';
import { formatDate, formatFileSize } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { linkButton, primaryButton, secondaryButton } from '../../ui/button-styles';
import { Modal } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { CopyLinkField, useCopied } from '../share/copy-link-field';
import {
  useCreateUploadLink,
  useRevokeUploadLink,
  useUploadLinks,
  type GuestTarget,
  type UploadLink,
} from './team-api';

const DAY = 24 * 60 * 60 * 1000;
const GB = 1024 * 1024 * 1024;

/** A date input's value `days` from now (yyyy-mm-dd, local). */
function dateIn(days: number): string {
  const d = new Date(Date.now() + days * DAY);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * 'Upload link': makes a link for a project's or a repository's branch through which guests
 * without an account send files (name, message shown to the guest, expiry, optional password,
 * files and size), shows its address to copy, and lists the project's or repository's links
 * with 'Revoke'.
 */
export function UploadLinkDialog({
  target,
  onClose,
}: {
  target: GuestTarget;
  onClose: () => void;
}) {
  const { branch } = target;
  const create = useCreateUploadLink(target);
  const links = useUploadLinks(target, true);
  const revoke = useRevokeUploadLink(target);
  const [name, setName] = useState('');
  const [message, setMessage] = useState('');
  const [expires, setExpires] = useState(dateIn(UPLOAD_LINK_DEFAULT_DAYS));
  const [password, setPassword] = useState('');
  const [maxFiles, setMaxFiles] = useState(String(UPLOAD_LINK_DEFAULT_FILES));
  const [maxGb, setMaxGb] = useState('2');
  const [problem, setProblem] = useState<string | null>(null);
  const [made, setMade] = useState<UploadLink | null>(null);
  const [copied, setCopied] = useCopied<string>();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem(null);
    if (!name.trim()) return setProblem(UPLOAD_LINK_MESSAGES.nameRequired);
    const files = Number(maxFiles);
    if (!Number.isInteger(files) || files < 1 || files > UPLOAD_LINK_MAX_FILES)
      return setProblem(UPLOAD_LINK_MESSAGES.filesRange);
    const bytes = Math.round(Number(maxGb) * GB);
    if (!Number.isFinite(bytes) || bytes < 1024 * 1024 || bytes > 10 * GB)
      return setProblem(UPLOAD_LINK_MESSAGES.bytesRange);
    // The end of the chosen day, local time.
    const end = new Date(`${expires}T23:59:59`);
    if (Number.isNaN(end.getTime()) || end.getTime() <= Date.now())
      return setProblem(UPLOAD_LINK_MESSAGES.expiryPast);
    try {
      const link = await create.mutateAsync({
        name: name.trim(),
        message: message.trim() || null,
        expires_at: end.toISOString(),
        password: password || null,
        max_files: files,
        max_bytes: bytes,
      });
      setMade(link);
    } catch (error) {
      setProblem(errorMessage(error, 'The link could not be made. Please try again.'));
    }
  }

  return (
    <Modal
      title={UPLOAD_LINK_WORDS.uploadLink}
      description={`Guests send files to ${branch.name} without an account. Each waits for you to add it as ${target.kind === 'project' ? 'a version' : 'a bounce'} or decline it.`}
      onClose={onClose}
    >
      {made ? (
        <div className="space-y-4">
          <CopyLinkField
            label="Upload link URL"
            url={made.url}
            copied={copied === made.id}
            onCopied={() => setCopied(made.id)}
          >
            {made.has_password ? (
              <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
                Send the password separately.
              </p>
            ) : null}
          </CopyLinkField>
          <div className="flex justify-end gap-2">
            <button type="button" className={secondaryButton} onClick={() => setMade(null)}>
              Create Another
            </button>
            <button type="button" className={primaryButton} onClick={onClose}>
              Close
            </button>
          </div>
        </div>
      ) : (
        <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
          <TextField label="Link Name" value={name} onValueChange={setName} maxLength={100} />
          <label className="block text-sm font-medium">
            Message to the guest (optional)
            <textarea
              className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
              rows={3}
              maxLength={1000}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
            />
          </label>
          <TextField
            label="Expires on"
            type="date"
            value={expires}
            onValueChange={setExpires}
            min={dateIn(0)}
            max={dateIn(UPLOAD_LINK_MAX_DAYS)}
          />
          <TextField
            label="Password (optional)"
            type="password"
            value={password}
            onValueChange={setPassword}
            autoComplete="new-password"
            hint="At least 8 characters. Guests need it to open the link."
          />
          <div className="grid grid-cols-2 gap-3">
            <TextField
              label="Most files"
              type="number"
              inputMode="numeric"
              value={maxFiles}
              onValueChange={setMaxFiles}
              min={1}
              max={UPLOAD_LINK_MAX_FILES}
            />
            <TextField
              label="Most size in all (GB)"
              type="number"
              inputMode="decimal"
              value={maxGb}
              onValueChange={setMaxGb}
              min={0.001}
              max={10}
              step="any"
            />
          </div>
          {problem ? <Alert tone="error">{problem}</Alert> : null}
          <div className="flex justify-end gap-2">
            <button type="button" className={secondaryButton} onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className={primaryButton} disabled={create.isPending}>
              {create.isPending ? 'Creating...' : 'Create Link'}
            </button>
          </div>
        </form>
      )}
      {links.data && links.data.links.length > 0 ? (
        <section className="mt-6 border-t border-zinc-200 pt-4 dark:border-zinc-800">
          <h3 className="text-sm font-semibold">
            This {target.kind === 'project' ? 'project' : 'repository'}&apos;s upload links
          </h3>
          <ul className="mt-2 space-y-2 text-sm">
            {links.data.links.map((link) => {
              const live = !link.revoked_at && Date.parse(link.expires_at) > Date.now();
              return (
                <li key={link.id} className="flex flex-wrap items-center justify-between gap-2">
                  <span className="min-w-0">
                    <span className="font-medium break-all">{link.name}</span>{' '}
                    <span className="text-zinc-600 dark:text-zinc-400">
                      · {link.branch_name} · {link.files_received}/{link.max_files} files,{' '}
                      {formatFileSize(link.bytes_received)} ·{' '}
                      {link.revoked_at
                        ? 'Revoked'
                        : live
                          ? `until ${formatDate(link.expires_at)}`
                          : 'Expired'}
                    </span>
                  </span>
                  {live ? (
                    <button
                      type="button"
                      className={linkButton}
                      onClick={() => revoke.mutate(link.id)}
                      aria-label={`Revoke ${link.name}`}
                    >
                      Revoke
                    </button>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
    </Modal>
  );
}
