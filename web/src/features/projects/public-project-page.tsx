import type { ReactNode } from 'react';
import { routes, type PublicProject, type PublicVersion } from '@takes/contract';
import { api, ApiError, errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { usePageMeta } from '../../lib/use-page-meta';
import { Badge, PrivacyBadge } from '../../ui/badge';
import type { PlayerTrack } from '../player/use-audio-player';
import { useNoIndex } from '../share/use-noindex';
import { ProjectSkeleton, StateBox } from './project-states';
import { usePublicProject } from './projects-api';
import { useRowPlay } from './use-row-play';

type PublicBranch = PublicProject['branches'][number];

/**
 * A Public project's version as the global player's track: the public stream (standard quality),
 * no version id, so the player offers no download, no quality choice and no share.
 */
export function publicVersionTrack(version: PublicVersion, project: PublicProject): PlayerTrack {
  return {
    id: `public:${version.id}`,
    title: version.message || `Version ${version.version_number}`,
    artist: project.name,
    album: project.name,
    audioUrl: api.url(routes.publicPages.streamPublicVersion, {
      params: { versionId: version.id },
    }),
    shareable: false,
    ...(version.waveform_data
      ? { peaks: version.waveform_data.peaks, duration: version.waveform_data.duration }
      : {}),
  };
}

/** Default branch first, then by name. */
function orderBranches(branches: readonly PublicBranch[]): PublicBranch[] {
  return [...branches].sort(
    (a, b) => Number(b.is_default) - Number(a.is_default) || a.name.localeCompare(b.name),
  );
}

interface PublicProjectViewProps {
  projectId: string;
  /** What to show when the project is not Public (or does not exist). */
  notFound: ReactNode;
}

/** Loads a Public project's page; `notFound` when there is none. */
export function PublicProjectView({ projectId, notFound }: PublicProjectViewProps) {
  const project = usePublicProject(projectId);
  if (project.isPending) return <ProjectSkeleton />;
  if (project.isError) {
    const error = project.error;
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
      return notFound;
    }
    return (
      <StateBox title="Error loading project">
        {errorMessage(error, 'Failed to load project')}
      </StateBox>
    );
  }
  return <PublicProjectPage project={project.data} />;
}

/**
 * The read-only page of a Public project: its name, description, branches and versions to play in
 * standard quality. No download, no comments, no links, nothing to change.
 */
export function PublicProjectPage({ project }: { project: PublicProject }) {
  usePageMeta(`${project.name} · Takes`, project.description || `${project.name} on Takes`);
  useNoIndex(!project.listed);
  const branches = orderBranches(project.branches);

  return (
    <div className="mx-auto max-w-4xl space-y-8 px-4 py-8 sm:px-6">
      <header className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-bold tracking-tight break-words sm:text-3xl">
            {project.name}
          </h1>
          <PrivacyBadge isPrivate={false} />
        </div>
        <p className="text-zinc-600 dark:text-zinc-300">
          {project.description || 'No description provided.'}
        </p>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          By {project.owner_name} · Updated {formatDate(project.updated_at)}
        </p>
      </header>

      {branches.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-300">No branches yet</p>
      ) : (
        branches.map((branch) => (
          <PublicBranchSection key={branch.id} branch={branch} project={project} />
        ))
      )}
    </div>
  );
}

function PublicBranchSection({
  branch,
  project,
}: {
  branch: PublicBranch;
  project: PublicProject;
}) {
  const headingId = `branch-${branch.id}`;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex items-center gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {branch.name}
        </h2>
        {branch.is_default && <Badge tone="indigo">Default</Badge>}
        <span className="text-sm text-zinc-600 dark:text-zinc-400">
          {branch.versions.length} {branch.versions.length === 1 ? 'version' : 'versions'}
        </span>
      </div>
      {branch.versions.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-300">No versions available</p>
      ) : (
        <ul aria-label={`Versions on ${branch.name}`} className="mt-3 space-y-1">
          {branch.versions.map((version) => (
            <PublicVersionRow key={version.id} version={version} project={project} />
          ))}
        </ul>
      )}
    </section>
  );
}

function PublicVersionRow({
  version,
  project,
}: {
  version: PublicVersion;
  project: PublicProject;
}) {
  const row = useRowPlay(publicVersionTrack(version, project));
  const unavailable = version.status !== 'completed';
  return (
    <li
      data-version={version.version_number}
      className="flex items-center gap-3 rounded-md px-2 py-2 hover:bg-zinc-50 dark:hover:bg-zinc-800"
    >
      <button
        type="button"
        onClick={row.onClick}
        disabled={row.disabled || unavailable}
        aria-label={`${row.playing ? 'Pause' : 'Play'} version ${version.version_number}`}
        className="flex size-9 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-50"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="currentColor">
          <path d={row.playing ? 'M7 5h4v14H7zM13 5h4v14h-4z' : 'M8 5v14l11-7z'} />
        </svg>
      </button>
      <div className="flex min-w-0 flex-1 flex-col">
        <span className="flex items-center gap-2">
          <span className="font-medium">Version {version.version_number}</span>
          {row.current && row.playing && <Badge tone="green">Playing</Badge>}
          {version.status === 'processing' && <Badge tone="amber">Processing</Badge>}
          {version.status === 'failed' && <Badge tone="red">Failed</Badge>}
        </span>
        <span className="truncate text-sm text-zinc-600 dark:text-zinc-300">
          {version.message || 'No message'}
        </span>
        <span className="text-xs text-zinc-600 dark:text-zinc-400">
          {formatDate(version.created_at)}
        </span>
      </div>
    </li>
  );
}
