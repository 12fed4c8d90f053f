import { useState } from 'react';
import { Link } from 'react-router';
import {
  may,
  type BranchWithVersions,
  type ProcessingResponse,
  type Role,
  type Version,
} from '@takes/contract';
import { formatDate } from '../../lib/format';
import { Badge } from '../../ui/badge';
import { linkButton, primaryButton, secondaryButton } from '../../ui/button-styles';
import { QuickShareDialog } from '../share/quick-share-dialog';
import { useCurrentUser } from '../auth/use-auth';
import { VersionReview } from '../review/version-review';
import { ProcessingStages } from '../upload/processing-stages';
import { ReviewStatusBadge } from '../review/review-status';
import { CompareActions } from '../compare/compare-menu';
import { AddToCollectionButton } from '../collections/add-to-collection';
import { Icon } from './branches-panel';
import { useRowPlay } from './use-row-play';
import { downloadUrl, versionTrack } from './version-track';

interface VersionsPanelProps {
  projectName: string;
  /** The caller's role: uploading and share links need Editor. */
  role: Role;
  branch: BranchWithVersions | null;
  selectedVersion: Version | null;
  onSelectVersion: (versionId: string) => void;
  onUpload: () => void;
  onNewBranch: () => void;
  processing: ProcessingResponse | undefined;
}

const panelClass =
  'rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900';

export function VersionsPanel(props: VersionsPanelProps) {
  const { branch, selectedVersion } = props;

  if (!branch) {
    return (
      <section className={`${panelClass} py-12 text-center`}>
        <h2 className="text-lg font-semibold">Select a branch</h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
          {may(props.role, 'manageBranches')
            ? 'Choose a branch on the left, or create one.'
            : 'Choose a branch on the left.'}
        </p>
        {may(props.role, 'manageBranches') && (
          <button type="button" className={`${primaryButton} mt-4`} onClick={props.onNewBranch}>
            Create Branch
          </button>
        )}
      </section>
    );
  }

  return (
    <section aria-labelledby="versions-heading" className={`${panelClass} space-y-4`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="versions-heading" className="text-lg font-semibold">
          Versions{' '}
          <span className="text-zinc-600 dark:text-zinc-400">({branch.versions.length})</span>
        </h2>
        {may(props.role, 'upload') && (
          <button type="button" className={`${primaryButton} px-3 py-1.5`} onClick={props.onUpload}>
            Upload Version
          </button>
        )}
      </div>

      {selectedVersion && (
        <SelectedVersionCard
          version={selectedVersion}
          branchName={branch.name}
          projectName={props.projectName}
          role={props.role}
          processing={props.processing}
        />
      )}

      {branch.versions.length === 0 ? (
        <p className="py-6 text-center text-sm text-zinc-600 dark:text-zinc-300">
          No versions available
        </p>
      ) : (
        <ul aria-label="Version list" className="max-h-96 space-y-1 overflow-y-auto">
          {branch.versions.map((version) => (
            <VersionRow
              key={version.id}
              version={version}
              projectName={props.projectName}
              role={props.role}
              selected={version.id === selectedVersion?.id}
              onSelect={() => props.onSelectVersion(version.id)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function SelectedVersionCard({
  version,
  branchName,
  projectName,
  role,
  processing,
}: {
  version: Version;
  branchName: string;
  projectName: string;
  role: Role;
  processing: ProcessingResponse | undefined;
}) {
  const user = useCurrentUser();
  return (
    <article
      aria-label="Selected version"
      className="rounded-md border border-indigo-200 bg-indigo-50/50 p-4 dark:border-indigo-900 dark:bg-indigo-950/30"
    >
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="indigo">v{version.version_number}</Badge>
        <h3 className="min-w-0 font-semibold break-words">
          {version.message || 'Untitled Version'}
        </h3>
        {version.status === 'failed' && <Badge tone="red">Failed</Badge>}
        <ReviewStatusBadge status={version.review_status} />
      </div>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
        {formatDate(version.created_at)}
      </p>
      {version.tags.length > 0 && (
        <ul aria-label="Tags" className="mt-2 flex flex-wrap gap-1">
          {version.tags.map((tag) => (
            <li key={tag}>
              <Badge>{tag}</Badge>
            </li>
          ))}
        </ul>
      )}
      {(version.status === 'processing' || processing) && (
        <div className="mt-3">
          <ProcessingStages status={processing} />
        </div>
      )}
      {/* The review view: the waveform and the comments. */}
      <div className="mt-4">
        <VersionReview
          version={version}
          track={versionTrack(version, projectName, role)}
          role={role}
          userId={user.id}
          headingLevel={4}
          sideBySide={false}
          processingShownElsewhere
        />
      </div>
      {version.status === 'failed' && version.error && (
        <p className="mt-2 text-sm text-red-700 dark:text-red-400">{version.error}</p>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <PlayButton version={version} projectName={projectName} role={role} variant="card" />
        <a href={downloadUrl(version.id)} download className={`${secondaryButton} px-3 py-1.5`}>
          Download
        </a>
        <Link
          to={`/projects/${version.project_id}/branches/${version.branch_id}/versions/${version.id}`}
          className={`${secondaryButton} px-3 py-1.5`}
        >
          Open version
        </Link>
        {may(role, 'share') && <ShareButton version={version} projectName={projectName} />}
        <AddToCollectionButton version={version} branchName={branchName} />
      </div>
    </article>
  );
}

/** Opens Quick Share: a private link to this version. */
function ShareButton({ version, projectName }: { version: Version; projectName: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={`${secondaryButton} px-3 py-1.5`}
        onClick={() => setOpen(true)}
        aria-label={`Share version ${version.version_number}`}
      >
        Share
      </button>
      <QuickShareDialog
        open={open}
        onClose={() => setOpen(false)}
        versionId={version.id}
        projectName={projectName}
        versionNumber={version.version_number}
      />
    </>
  );
}

function PlayButton({
  version,
  projectName,
  role,
  variant,
}: {
  version: Version;
  projectName: string;
  role: Role;
  variant: 'row' | 'card';
}) {
  const row = useRowPlay(versionTrack(version, projectName, role));
  const label = `${row.playing ? 'Pause' : 'Play'} version ${version.version_number}`;
  const unavailable = version.status !== 'completed';
  if (variant === 'card') {
    return (
      <button
        type="button"
        className={`${primaryButton} px-3 py-1.5`}
        disabled={row.disabled || unavailable}
        onClick={row.onClick}
        aria-label={label}
      >
        {row.playing ? 'Pause' : 'Play'}
      </button>
    );
  }
  return (
    <button
      type="button"
      onClick={(event) => {
        // Playing a row does not also select it twice over.
        event.stopPropagation();
        row.onClick();
      }}
      disabled={row.disabled || unavailable}
      aria-label={label}
      className="flex size-9 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-50"
    >
      {row.playing ? (
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="currentColor">
          <path d="M7 5h4v14H7zM13 5h4v14h-4z" />
        </svg>
      ) : (
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="currentColor">
          <path d="M8 5v14l11-7z" />
        </svg>
      )}
    </button>
  );
}

function VersionRow({
  version,
  projectName,
  role,
  selected,
  onSelect,
}: {
  version: Version;
  projectName: string;
  role: Role;
  selected: boolean;
  onSelect: () => void;
}) {
  const row = useRowPlay(versionTrack(version, projectName, role));
  return (
    <li
      data-version={version.version_number}
      className={`flex items-center gap-3 rounded-md px-2 py-2 ${
        selected
          ? 'bg-indigo-50 ring-1 ring-indigo-300 dark:bg-indigo-950 dark:ring-indigo-800'
          : 'hover:bg-zinc-50 dark:hover:bg-zinc-800'
      }`}
    >
      <PlayButton version={version} projectName={projectName} role={role} variant="row" />
      <button
        type="button"
        onClick={onSelect}
        aria-pressed={selected}
        className="flex min-w-0 flex-1 flex-col items-start rounded text-left focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        <span className="flex items-center gap-2">
          <span className="font-medium">Version {version.version_number}</span>
          {row.current && row.playing && <Badge tone="green">Playing</Badge>}
          {version.status === 'processing' && <Badge tone="amber">Processing</Badge>}
          {version.status === 'failed' && <Badge tone="red">Failed</Badge>}
          <ReviewStatusBadge status={version.review_status} />
        </span>
        <span className="max-w-full truncate text-sm text-zinc-600 dark:text-zinc-300">
          {version.message || 'No message'}
        </span>
        <span className="text-xs text-zinc-600 dark:text-zinc-400">
          {formatDate(version.created_at)}
        </span>
      </button>
      <span className="flex flex-col items-end gap-1 text-xs sm:flex-row sm:gap-3">
        <CompareActions version={version} className={`${linkButton} text-xs`} />
      </span>
      <a
        href={downloadUrl(version.id)}
        download
        aria-label={`Download version ${version.version_number}`}
        title="Download"
        className="rounded p-2 text-zinc-600 hover:bg-zinc-200 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-zinc-300 dark:hover:bg-zinc-700"
      >
        <Icon path="M12 4v12m0 0-4-4m4 4 4-4M4 20h16" />
      </a>
    </li>
  );
}
