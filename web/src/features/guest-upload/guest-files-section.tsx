import { may, UPLOAD_LINK_WORDS, type Role } from '@takes/contract';
import { lazy, Suspense, useState } from 'react';
import { errorMessage } from '../../lib/api';
import { formatDate, formatFileSize } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { linkButton, primaryButton, secondaryButton } from '../../ui/button-styles';
import { ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { Modal } from '../../ui/modal';
import { useMarkTargetRead } from '../notifications/use-mark-target-read';
import { useAudioPlayer } from '../player/use-audio-player';
import type { PlayerTrack } from '../player/player-types';
import {
  useAcceptGuestFile,
  useDeclineGuestFile,
  useGuestFiles,
  type GuestFile,
  type GuestTarget,
} from './team-api';

const UploadLinkDialog = lazy(() =>
  import('./upload-link-dialog').then((m) => ({ default: m.UploadLinkDialog })),
);

const panelClass =
  'rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900';

function guestTrack(file: GuestFile, placeName: string): PlayerTrack {
  return {
    id: `guest-${file.id}`,
    title: file.file_name,
    artist: file.sent_by,
    album: placeName,
    audioUrl: file.stream_url,
    shareable: false,
    ...(file.peaks ? { peaks: file.peaks } : {}),
    duration: file.duration,
  };
}

/** A bounce's title from a file's name: without its extension (as publishing names one). */
function titleOf(fileName: string): string {
  return fileName.replace(/\.[^.]+$/, '') || fileName;
}

/**
 * The branch's files from guests ('Sent by {name} via {link}'): not versions (or bounces) until
 * someone who may upload to the project (or publish to the repository) adds one ('Add as Version
 * N' with a message, or 'Add as bounce' with a title) or declines it. Members who may listen play
 * them here; Editors and the Owner also make an 'Upload link'.
 */
export function GuestFilesSection({ target, role }: { target: GuestTarget; role: Role }) {
  const { branch } = target;
  const files = useGuestFiles(target);
  // A guest's file notification links here: seeing the branch's files marks it read (a
  // repository's page marks its own notifications read already).
  useMarkTargetRead(
    target.kind === 'project' ? `/projects/${target.projectId}?branch=${target.branch.id}` : '',
    target.kind === 'project' && files.isSuccess,
  );
  const [linking, setLinking] = useState(false);
  const [accepting, setAccepting] = useState<GuestFile | null>(null);
  const [declining, setDeclining] = useState<GuestFile | null>(null);
  const canDecide = may(role, target.kind === 'project' ? 'upload' : 'publish');
  const list = files.data?.files ?? [];
  const next = files.data?.next_version_number ?? null;
  // What accepting makes: the branch's next version, or a bounce (which has no number).
  const addWords =
    target.kind === 'project'
      ? next === null
        ? null
        : UPLOAD_LINK_WORDS.addAsVersion(next)
      : UPLOAD_LINK_WORDS.addAsBounce;

  if (!canDecide && list.length === 0) return null;
  return (
    <section aria-labelledby="guest-files-heading" className={`${panelClass} space-y-3`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="guest-files-heading" className="text-lg font-semibold">
          {UPLOAD_LINK_WORDS.pending}{' '}
          <span className="text-zinc-600 dark:text-zinc-400">({list.length})</span>
        </h2>
        {canDecide ? (
          <button
            type="button"
            className={`${secondaryButton} px-3 py-1.5`}
            onClick={() => setLinking(true)}
          >
            {UPLOAD_LINK_WORDS.uploadLink}
          </button>
        ) : null}
      </div>
      {files.isError ? (
        <Alert tone="error">{errorMessage(files.error, 'Failed to load files from guests')}</Alert>
      ) : list.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-300">
          No files from guests on {branch.name}. Make an {UPLOAD_LINK_WORDS.uploadLink} to ask for
          some.
        </p>
      ) : (
        <ul aria-label="Files from guests" className="space-y-2">
          {list.map((file) => (
            <GuestFileRow
              key={file.id}
              file={file}
              placeName={target.name}
              addWords={addWords}
              canDecide={canDecide}
              onAccept={() => setAccepting(file)}
              onDecline={() => setDeclining(file)}
            />
          ))}
        </ul>
      )}
      <Suspense fallback={null}>
        {linking ? <UploadLinkDialog target={target} onClose={() => setLinking(false)} /> : null}
      </Suspense>
      {accepting && addWords !== null ? (
        <AcceptDialog
          target={target}
          file={accepting}
          words={addWords}
          onClose={() => setAccepting(null)}
        />
      ) : null}
      {declining ? (
        <DeclineDialog target={target} file={declining} onClose={() => setDeclining(null)} />
      ) : null}
    </section>
  );
}

function GuestFileRow({
  file,
  placeName,
  addWords,
  canDecide,
  onAccept,
  onDecline,
}: {
  file: GuestFile;
  placeName: string;
  addWords: string | null;
  canDecide: boolean;
  onAccept: () => void;
  onDecline: () => void;
}) {
  const player = useAudioPlayer();
  const track = guestTrack(file, placeName);
  const current = player.isCurrent(track);
  const playing = current && player.state.isPlaying;
  return (
    <li className="rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium break-all">{file.file_name}</p>
          <p className="text-zinc-600 dark:text-zinc-400">
            {file.sent_by} · {formatDate(file.created_at)} · {formatFileSize(file.size)}
            {file.guest_email ? ` · ${file.guest_email}` : ''}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {file.status === 'completed' ? (
            <button
              type="button"
              className={`${secondaryButton} px-3 py-1.5`}
              aria-label={`${playing ? 'Pause' : 'Play'} ${file.file_name}`}
              onClick={() => (current ? player.togglePlay() : player.playTrack(track))}
            >
              {playing ? 'Pause' : 'Play'}
            </button>
          ) : (
            <span className="text-zinc-600 dark:text-zinc-400">
              {file.status === 'processing' ? 'Processing…' : 'Could not be processed'}
            </span>
          )}
          {canDecide && file.status === 'completed' && addWords !== null ? (
            <button type="button" className={`${primaryButton} px-3 py-1.5`} onClick={onAccept}>
              {addWords}
            </button>
          ) : null}
          {canDecide && file.status !== 'processing' ? (
            <button type="button" className={linkButton} onClick={onDecline}>
              {UPLOAD_LINK_WORDS.decline}
            </button>
          ) : null}
        </div>
      </div>
      {file.error ? <p className="mt-1 text-red-700 dark:text-red-300">{file.error}</p> : null}
    </li>
  );
}

function AcceptDialog({
  target,
  file,
  words,
  onClose,
}: {
  target: GuestTarget;
  file: GuestFile;
  words: string;
  onClose: () => void;
}) {
  const accept = useAcceptGuestFile(target);
  const asBounce = target.kind === 'repo';
  // A version takes a message; a bounce a title (the file's name unless changed).
  const [text, setText] = useState(asBounce ? titleOf(file.file_name) : '');
  return (
    <Modal title={words} description={`${file.file_name} · ${file.sent_by}`} onClose={onClose}>
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          const value = text.trim();
          accept.mutate(
            { id: file.id, words: asBounce ? { title: value } : { message: value } },
            { onSuccess: onClose },
          );
        }}
      >
        {asBounce ? (
          <label className="block text-sm font-medium">
            Bounce Title
            <input
              className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
              maxLength={200}
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
          </label>
        ) : (
          <label className="block text-sm font-medium">
            Version Message
            <textarea
              className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
              rows={3}
              maxLength={1000}
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
          </label>
        )}
        {accept.error ? (
          <Alert tone="error">{errorMessage(accept.error, 'The file could not be added.')}</Alert>
        ) : null}
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={primaryButton} disabled={accept.isPending}>
            {accept.isPending ? 'Adding...' : words}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function DeclineDialog({
  target,
  file,
  onClose,
}: {
  target: GuestTarget;
  file: GuestFile;
  onClose: () => void;
}) {
  const decline = useDeclineGuestFile(target);
  return (
    <ConfirmDeleteModal
      title={`Decline ${file.file_name}?`}
      description={`${file.sent_by}. The file and its audio are deleted for good.`}
      confirmLabel="Decline"
      pendingLabel="Declining..."
      pending={decline.isPending}
      error={decline.error ? errorMessage(decline.error, 'The file could not be declined.') : null}
      onConfirm={() => decline.mutate(file.id, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}
