import { UPLOAD_LINK_MESSAGES, UPLOAD_LINK_WORDS } from '@takes/contract';
import { useRef, useState, type FormEvent } from 'react';
import { formatFileSize } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { TextField } from '../../ui/text-field';
import { audioFileProblem } from '../upload/audio-file';
import type { GuestUploadPage } from './guest-upload-api';
import { sendGuestFile } from './guest-upload-client';
import { GuestFilesPicker } from './guest-files-picker';

type FileState = 'waiting' | 'sending' | 'sent' | 'failed';

interface Chosen {
  id: number;
  file: File;
  /** Why it cannot be sent (format, size), checked as it is chosen; null when it can. */
  problem: string | null;
  state: FileState;
  percent: number;
  error: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Each chosen file checked as the upload page checks one, and against what the link still takes. */
function checked(files: File[], page: GuestUploadPage, already: number, nextId: () => number) {
  let taken = already;
  return files.map((file): Chosen => {
    let problem = audioFileProblem(file);
    if (!problem && file.size > page.max_file_bytes) problem = UPLOAD_LINK_MESSAGES.bytesUsedUp;
    if (!problem && taken >= page.files_left) problem = UPLOAD_LINK_MESSAGES.filesUsedUp;
    if (!problem) taken += 1;
    return { id: nextId(), file, problem, state: 'waiting', percent: 0, error: null };
  });
}

/** The guest's form: name, optional address, files; each sent resumably in turn, with progress. */
export function GuestUploadForm({ linkKey, page }: { linkKey: string; page: GuestUploadPage }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [files, setFiles] = useState<Chosen[]>([]);
  const [nameError, setNameError] = useState<string | undefined>();
  const [emailError, setEmailError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const [thanked, setThanked] = useState<string | null>(null);
  const counter = useRef(0);

  const sendable = files.filter((f) => f.problem === null && f.state !== 'sent');
  const update = (id: number, change: Partial<Chosen>) =>
    setFiles((all) => all.map((f) => (f.id === id ? { ...f, ...change } : f)));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    setNameError(trimmed ? undefined : UPLOAD_LINK_MESSAGES.guestNameRequired);
    const badEmail = email.trim() !== '' && !EMAIL.test(email.trim());
    setEmailError(badEmail ? UPLOAD_LINK_MESSAGES.guestEmailInvalid : undefined);
    if (!trimmed || badEmail || sending) return;
    if (sendable.length === 0) return;
    setSending(true);
    let failed = false;
    for (const chosen of sendable) {
      update(chosen.id, { state: 'sending', error: null });
      try {
        await sendGuestFile(linkKey, chosen.file, { name: trimmed, email }, (progress) =>
          update(chosen.id, { percent: progress.percent }),
        );
        update(chosen.id, { state: 'sent', percent: 100 });
      } catch (error) {
        failed = true;
        update(chosen.id, {
          state: 'failed',
          error: error instanceof Error ? error.message : 'Unknown upload error',
        });
      }
    }
    setSending(false);
    if (!failed) setThanked(trimmed);
  }

  if (thanked)
    return (
      <div className="space-y-4">
        <Alert tone="success">{UPLOAD_LINK_WORDS.thanks(thanked)}</Alert>
        <button
          type="button"
          className={secondaryButton}
          onClick={() => {
            setThanked(null);
            setFiles([]);
          }}
        >
          Send more files
        </button>
      </div>
    );

  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-5" noValidate>
      <TextField
        label="Your name"
        value={name}
        onValueChange={setName}
        error={nameError}
        autoComplete="name"
        maxLength={80}
        disabled={sending}
      />
      <TextField
        label="Email (optional)"
        type="email"
        value={email}
        onValueChange={setEmail}
        error={emailError}
        hint="We email you once when your file is accepted."
        autoComplete="email"
        maxLength={254}
        disabled={sending}
      />
      <GuestFilesPicker
        disabled={sending}
        onFiles={(picked) =>
          setFiles((all) => [
            ...all,
            ...checked(
              picked,
              page,
              all.filter((f) => f.problem === null).length,
              () => ++counter.current,
            ),
          ])
        }
      />
      {files.length > 0 ? (
        <ul className="space-y-2" aria-label="Chosen files">
          {files.map((chosen) => (
            <li
              key={chosen.id}
              className="rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800"
            >
              <div className="flex items-center justify-between gap-3">
                <span className="min-w-0 font-medium break-all">{chosen.file.name}</span>
                <span className="shrink-0 text-zinc-600 dark:text-zinc-400">
                  {chosen.state === 'sent' ? 'Sent' : formatFileSize(chosen.file.size)}
                </span>
              </div>
              {(chosen.problem ?? chosen.error) ? (
                <p role="alert" className="mt-1 text-red-700 dark:text-red-300">
                  {chosen.problem ?? chosen.error}
                </p>
              ) : null}
              {chosen.state === 'sending' || chosen.state === 'sent' ? (
                <div
                  role="progressbar"
                  aria-label={`Sending ${chosen.file.name}`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={chosen.percent}
                  className="mt-2 h-2 overflow-hidden rounded bg-zinc-200 dark:bg-zinc-800"
                >
                  <div
                    className="h-full bg-indigo-600 transition-[width]"
                    style={{ width: `${chosen.percent}%` }}
                  />
                </div>
              ) : null}
              {chosen.state !== 'sending' && chosen.state !== 'sent' && !sending ? (
                <button
                  type="button"
                  className="mt-1 text-xs text-zinc-600 underline dark:text-zinc-400"
                  onClick={() => setFiles((all) => all.filter((f) => f.id !== chosen.id))}
                >
                  Remove {chosen.file.name}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <button
        type="submit"
        className={`${primaryButton} w-full sm:w-auto`}
        disabled={sending || sendable.length === 0}
      >
        {sending
          ? 'Sending...'
          : sendable.length === 1
            ? 'Send 1 file'
            : `Send ${sendable.length} files`}
      </button>
    </form>
  );
}
