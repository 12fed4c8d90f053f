import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { may } from '@takes/contract';
import { ApiError, errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { primaryButton, secondaryButton, linkButton } from '../../ui/button-styles';
import { ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { PageSpinner } from '../../ui/spinner';
import { useBranches, useDeleteVersion } from '../projects/projects-api';
import { downloadUrl, versionTrack } from '../projects/version-track';
import { useCurrentUser } from '../auth/use-auth';
import { useAudioPlayer } from '../player/use-audio-player';
import { useSeekToTime } from '../comments/use-seek-to-time';
import { useMarkTargetRead } from '../notifications/use-mark-target-read';
import { VersionReview } from '../review/version-review';
import { ReviewStatusControl } from '../review/review-status';
import { TechnicalReadout } from '../review/technical-readout';
import { CompareActions } from '../compare/compare-menu';
import { AddToCollectionButton } from '../collections/add-to-collection';
import { QuickShareDialog } from '../share/quick-share-dialog';
import { BlindTestButton } from '../blind-tests/owner/blind-test-dialog';
import { ExportComments } from '../markers/export-comments';
import { VersionPlatformPreview } from '../platform-preview/version-platform-preview';
import { useVersion, type VersionDetail } from './versions-api';
import { formatDateTime } from '../../lib/format';

/** A version starts playing this long after its page loads. */
const AUTO_PLAY_DELAY_MS = 300;

/** The `t` of the address as seconds to start at, or null (absent, negative or not a number). */
function parseStartAt(value: string | null): number | null {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

/** /projects/{projectId}/branches/{branchId}/versions/{versionId}: one version, its audio and comments. */
export function VersionPage() {
  const { projectId = '', versionId = '' } = useParams();
  const version = useVersion(versionId);
  // Reading a version marks its notifications read (a comment's link carries ?t=, so by path).
  const { pathname } = useLocation();
  useMarkTargetRead(pathname, version.isSuccess);
  useDocumentTitle(
    version.data
      ? `Version ${version.data.version_number} · ${version.data.project.name}`
      : 'Version',
  );

  if (version.isPending) return <PageSpinner label="Loading version" />;
  if (version.isError) {
    const notFound = version.error instanceof ApiError && version.error.status === 404;
    return (
      <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
        <Alert tone="error">
          {notFound
            ? 'Version not found'
            : `Error loading version: ${errorMessage(version.error, version.error.message)}`}
        </Alert>
        <Link to={`/projects/${projectId}`} className={`${linkButton} mt-4 inline-block`}>
          Back to project
        </Link>
      </div>
    );
  }
  return <VersionDetails version={version.data} />;
}

function VersionDetails({ version }: { version: VersionDetail }) {
  const player = useAudioPlayer();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const { role } = version.project;
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [sharing, setSharing] = useState(false);
  const deleteVersion = useDeleteVersion(version.project_id);
  const track = {
    ...versionTrack(version, version.project.name, role),
    album: version.project.name,
  };
  const current = player.isCurrent(track);
  const playing = current && player.state.isPlaying;
  const projectPath = `/projects/${version.project_id}`;

  const { playTrack } = player;
  // A link to a comment (?t=SECONDS) starts the version there.
  const [searchParams] = useSearchParams();
  const startAt = parseStartAt(searchParams.get('t'));
  const seekToTime = useSeekToTime(track);
  // Auto-play once per opened version, shortly after it loads.
  useEffect(() => {
    const timer = setTimeout(() => {
      if (startAt !== null) {
        seekToTime(startAt);
        return;
      }
      playTrack(
        {
          ...versionTrack(version, version.project.name, role),
          album: version.project.name,
        },
        { shouldPlay: true },
      );
    }, AUTO_PLAY_DELAY_MS);
    return () => clearTimeout(timer);
    // Only a different version (or a new ?t=) should start playback again, not a refetch of
    // this one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version.id, playTrack, startAt]);

  async function confirmDelete() {
    try {
      await deleteVersion.mutateAsync(version.id);
      if (current) player.pause();
      await navigate(projectPath);
    } catch (error) {
      // Version deletion failures are logged only, with no message; the dialog stays open.
      console.error('Failed to delete version:', error);
    }
  }

  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <Link to={projectPath} className={linkButton}>
        ← Back to {version.project.name}
      </Link>

      <div className="mt-4 rounded-lg border border-zinc-200 p-5 dark:border-zinc-800">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <h1 className="text-2xl font-bold">Version {version.version_number}</h1>
            <p className="mt-1 text-zinc-700 dark:text-zinc-300">
              {version.message ? version.message : 'No message'}
            </p>
            <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">
              Created{' '}
              <time dateTime={version.created_at}>{formatDateTime(version.created_at)}</time>
            </p>
            <div className="mt-3">
              <ReviewStatusControl
                versionId={version.id}
                role={role}
                fallback={version.review_status}
              />
            </div>
            {version.tags.length > 0 ? (
              <ul aria-label="Tags" className="mt-3 flex flex-wrap gap-2">
                {version.tags.map((tag) => (
                  <li key={tag}>
                    <Badge tone="indigo">{tag}</Badge>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>

          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={primaryButton}
              onClick={() => (playing ? player.pause() : player.playTrack(track))}
            >
              {playing ? 'Pause' : 'Play'}
            </button>
            <a href={downloadUrl(version.id)} download className={secondaryButton}>
              Download
            </a>
            <ExportComments source={{ versionId: version.id }} allowWav={may(role, 'download')} />
            <CompareActions version={version} className={secondaryButton} />
            <AddVersionToCollection version={version} />
            {may(role, 'share') && (
              <button type="button" className={secondaryButton} onClick={() => setSharing(true)}>
                Share
              </button>
            )}
            {may(role, 'share') && (
              <BlindTestButton
                projectId={version.project_id}
                projectName={version.project.name}
                versionIds={[version.id]}
              />
            )}
            {may(role, 'editVersions') && (
              <button
                type="button"
                className={secondaryButton}
                onClick={() => setConfirmingDelete(true)}
              >
                Delete
              </button>
            )}
          </div>
        </div>
      </div>

      <VersionPlatformPreview version={version} track={track} />

      <div className="mt-4 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
        <TechnicalReadout version={version} />
      </div>

      <div className="mt-6">
        <VersionReview version={version} track={track} role={role} userId={user.id} />
      </div>

      <QuickShareDialog
        open={sharing && may(role, 'share')}
        onClose={() => setSharing(false)}
        versionId={version.id}
        projectName={version.project.name}
        versionNumber={version.version_number}
      />

      {confirmingDelete ? (
        <ConfirmDeleteModal
          title="Delete version"
          description={`Are you sure you want to delete Version ${version.version_number}? This cannot be undone.`}
          confirmLabel="Delete"
          pendingLabel="Deleting…"
          pending={deleteVersion.isPending}
          onConfirm={() => void confirmDelete()}
          onClose={() => setConfirmingDelete(false)}
        />
      ) : null}
    </div>
  );
}

/** 'Add to collection' for this version (or the latest of its branch, named once known). */
function AddVersionToCollection({ version }: { version: VersionDetail }) {
  const branches = useBranches(version.project_id);
  const branchName = branches.data?.find((branch) => branch.id === version.branch_id)?.name ?? '';
  return <AddToCollectionButton version={version} branchName={branchName} />;
}
