import { useDeferredValue, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Project, SharedProject, StatsResponse } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { PrivacyBadge } from '../../ui/badge';
import { linkButton, primaryButton, secondaryButton } from '../../ui/button-styles';
import { useCurrentUser } from '../auth/use-auth';
import { welcomeName } from '../auth/user-names';
import { CreateProjectModal } from '../projects/create-project-modal';
import { DeleteProjectModal } from '../projects/delete-project-modal';
import { RoleBadge } from '../members/role-badge';
import { useProjectPages, useSharedProjects, useStats } from '../projects/projects-api';

const RECENT_PROJECTS = 3;
const BRANCHES_PER_CARD = 2;

export function DashboardPage() {
  useDocumentTitle('Dashboard · Takes');
  const user = useCurrentUser();
  const navigate = useNavigate();
  const projects = useProjectPages();
  // The list (3 cards and up to 50 rows) renders in a transition once it arrives: React splits
  // that render into slices between which the browser paints and takes input, where the answer
  // itself would render it in one long task (Lighthouse, a phone: its time over 50 ms blocks).
  const shownPages = useDeferredValue(projects.data);
  const list = shownPages?.pages.flat() ?? [];
  const arriving = shownPages === undefined && projects.data !== undefined;
  // A failed 'Load more' keeps the pages loaded and says why under them.
  const moreError = projects.isFetchNextPageError ? projects.error : null;
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Project | null>(null);

  return (
    <div className="mx-auto max-w-6xl space-y-10 px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight text-zinc-900 sm:text-4xl dark:text-white">
          Welcome back, {welcomeName(user)}
        </h1>
        <button type="button" className={primaryButton} onClick={() => setCreating(true)}>
          Create New Project
        </button>
      </div>

      <StatCards />

      {projects.isPending || arriving ? (
        <ProjectsSkeleton />
      ) : projects.isError ? (
        <Alert tone="error">
          Error loading projects: {errorMessage(projects.error, 'Failed to load projects')}
        </Alert>
      ) : list.length === 0 ? (
        <EmptyProjects onCreate={() => setCreating(true)} />
      ) : (
        <>
          <RecentProjects projects={list} onDelete={setDeleting} />
          <ProjectsTable projects={list} onDelete={setDeleting} />
          {projects.hasNextPage && (
            <div className="flex justify-center">
              <button
                type="button"
                className={secondaryButton}
                disabled={projects.isFetchingNextPage}
                onClick={() => void projects.fetchNextPage()}
              >
                {projects.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </button>
            </div>
          )}
          {moreError && (
            <Alert tone="error">
              Error loading projects: {errorMessage(moreError, 'Failed to load projects')}
            </Alert>
          )}
        </>
      )}

      <SharedWithYou />

      <QuickActions />

      {creating && (
        <CreateProjectModal
          onClose={() => setCreating(false)}
          onCreated={(projectId) => {
            setCreating(false);
            void navigate(`/projects/${projectId}`);
          }}
        />
      )}
      {deleting && (
        <DeleteProjectModal
          project={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => setDeleting(null)}
        />
      )}
    </div>
  );
}

const cardClass =
  'rounded-lg border border-zinc-200 bg-white p-5 shadow-sm dark:border-zinc-800 dark:bg-zinc-900';

/**
 * Events in the last 30 days. The server's activity count (`activityLastMonth`, issue 15) is
 * read when the answer carries it; until then, the versions uploaded in the last month.
 */
function activityLastMonth(stats: StatsResponse): number {
  const counted = (stats as StatsResponse & { activityLastMonth?: unknown }).activityLastMonth;
  return typeof counted === 'number' ? counted : stats.versionsLastMonth;
}

function StatCards() {
  const stats = useStats();
  const data = stats.data;
  const value = (n: number | undefined) => (n === undefined ? '–' : String(n));
  return (
    <section aria-label="Statistics" className="grid gap-4 sm:grid-cols-3">
      <div className={cardClass}>
        <h2 className="text-sm font-medium text-zinc-600 dark:text-zinc-300">Projects</h2>
        <p className="mt-2 text-3xl font-bold">{value(data?.projects)}</p>
      </div>
      <div className={cardClass}>
        <h2 className="text-sm font-medium text-zinc-600 dark:text-zinc-300">Tracks</h2>
        <p className="mt-2 text-3xl font-bold">{value(data?.tracks)}</p>
        {data ? (
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
            Last update: {data.lastUpdate ? formatDate(data.lastUpdate) : 'Never'}
          </p>
        ) : (
          <p className="mt-1 text-sm" data-testid="stat-placeholder">
            <SkeletonLine width="w-36" />
          </p>
        )}
      </div>
      <div className={cardClass}>
        <h2 className="text-sm font-medium text-zinc-600 dark:text-zinc-300">Activity</h2>
        <p className="mt-2 text-3xl font-bold">{data ? `+${activityLastMonth(data)}` : '–'}</p>
        {data ? (
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
            +{activityLastMonth(data)} in the last month
          </p>
        ) : (
          <p className="mt-1 text-sm" data-testid="stat-placeholder">
            <SkeletonLine width="w-32" />
          </p>
        )}
      </div>
    </section>
  );
}

/**
 * A grey bar one line of the surrounding text tall (a no-break space sets the line box), standing
 * in for text that is still loading.
 */
function SkeletonLine({ width }: { width: string }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-block max-w-full animate-pulse rounded bg-zinc-200 align-middle dark:bg-zinc-800 ${width}`}
    >
      {'\u00a0'}
    </span>
  );
}

/** Table rows the loading skeleton shows. */
const SKELETON_ROWS = 5;

/**
 * What the project list will look like while it loads: the recent cards and the table rows at
 * their final size, so nothing below them moves when they fill in.
 */
function ProjectsSkeleton() {
  return (
    <div className="space-y-10" data-testid="projects-skeleton">
      <p role="status" className="sr-only">
        Loading projects
      </p>
      <div aria-hidden="true">
        <p className="text-xl font-semibold">
          <SkeletonLine width="w-40" />
        </p>
        <ul className="mt-4 grid gap-4 md:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: RECENT_PROJECTS }, (_, i) => (
            <li key={i} className={`${cardClass} flex flex-col`}>
              <p className="font-semibold">
                <SkeletonLine width="w-40" />
              </p>
              <p className="mt-2 text-sm">
                <SkeletonLine width="w-48" />
              </p>
              <p className="mt-2 text-xs">
                <SkeletonLine width="w-28" />
              </p>
              <div className="mt-3 text-sm">
                <p>
                  <SkeletonLine width="w-20" />
                </p>
                <p className="mt-1 text-xs">
                  <SkeletonLine width="w-16" />
                </p>
              </div>
              <div className="mt-4 flex items-center justify-between gap-2 pt-2">
                <span className={`${secondaryButton} invisible px-3 py-1.5`}>Delete</span>
                <span className={`${primaryButton} invisible px-3 py-1.5`}>Open</span>
              </div>
            </li>
          ))}
        </ul>
      </div>
      <div aria-hidden="true">
        <p className="text-xl font-semibold">
          <SkeletonLine width="w-36" />
        </p>
        <div className="mt-4 divide-y divide-zinc-200 rounded-lg border border-zinc-200 text-sm dark:divide-zinc-800 dark:border-zinc-800">
          <div className="bg-zinc-50 px-4 py-3 dark:bg-zinc-900">
            <SkeletonLine width="w-24" />
          </div>
          {Array.from({ length: SKELETON_ROWS }, (_, i) => (
            <div key={i} className="flex items-center justify-between px-4 py-3">
              <SkeletonLine width="w-40" />
              <span className="inline-block rounded px-2 py-1">
                <SkeletonLine width="w-12" />
              </span>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

function EmptyProjects({ onCreate }: { onCreate: () => void }) {
  return (
    <section className={`${cardClass} py-12 text-center`}>
      <h2 className="text-lg font-semibold">No projects yet</h2>
      <button type="button" className={`${primaryButton} mt-4`} onClick={onCreate}>
        Create New Project
      </button>
    </section>
  );
}

interface ProjectListProps {
  projects: Project[];
  onDelete: (project: Project) => void;
}

function RecentProjects({ projects, onDelete }: ProjectListProps) {
  const recent = projects.slice(0, RECENT_PROJECTS);
  return (
    <section aria-labelledby="recent-projects">
      <div className="flex items-center justify-between">
        <h2 id="recent-projects" className="text-xl font-semibold">
          Recent Projects
        </h2>
        {projects.length > RECENT_PROJECTS && (
          <a href="#your-projects" className={linkButton}>
            View all
          </a>
        )}
      </div>
      <ul className="mt-4 grid gap-4 md:grid-cols-2 lg:grid-cols-3">
        {recent.map((project) => (
          <li key={project.id} className={`${cardClass} flex flex-col`}>
            <div className="flex items-start justify-between gap-2">
              <h3 className="min-w-0 font-semibold break-words">{project.name}</h3>
              <PrivacyBadge isPrivate={project.is_private} />
            </div>
            <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">
              {project.description || 'No description provided.'}
            </p>
            <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
              Updated {formatDate(project.updated_at)}
            </p>
            <BranchPreview project={project} />
            <div className="mt-4 flex items-center justify-between gap-2 pt-2">
              <button
                type="button"
                className={`${secondaryButton} px-3 py-1.5`}
                aria-label={`Delete ${project.name}`}
                onClick={() => onDelete(project)}
              >
                Delete
              </button>
              <Link
                to={`/projects/${project.id}`}
                className={`${primaryButton} px-3 py-1.5`}
                aria-label={`Open ${project.name}`}
              >
                Open
              </Link>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Projects others own that the caller is a member of; hidden while there are none. */
function SharedWithYou() {
  const shared = useSharedProjects();
  if (shared.isError) {
    return (
      <Alert tone="error">
        Error loading shared projects: {errorMessage(shared.error, 'Failed to load projects')}
      </Alert>
    );
  }
  if (!shared.data || shared.data.length === 0) return null;
  return (
    <section aria-labelledby="shared-projects">
      <h2 id="shared-projects" className="text-xl font-semibold">
        Shared with you
      </h2>
      <ul className="mt-4 grid gap-4 md:grid-cols-2 lg:grid-cols-3">
        {shared.data.map((project) => (
          <SharedProjectCard key={project.id} project={project} />
        ))}
      </ul>
    </section>
  );
}

function SharedProjectCard({ project }: { project: SharedProject }) {
  return (
    <li className={`${cardClass} flex flex-col`} data-project={project.name}>
      <div className="flex items-start justify-between gap-2">
        <h3 className="min-w-0 font-semibold break-words">{project.name}</h3>
        <div className="flex shrink-0 flex-wrap justify-end gap-1">
          <RoleBadge role={project.role} />
          <PrivacyBadge isPrivate={project.is_private} />
        </div>
      </div>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">
        {project.description || 'No description provided.'}
      </p>
      <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">Owner: {project.owner.name}</p>
      <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
        Updated {formatDate(project.updated_at)}
      </p>
      <BranchPreview project={project} />
      <div className="mt-auto flex justify-end pt-4">
        <Link
          to={`/projects/${project.id}`}
          className={`${primaryButton} px-3 py-1.5`}
          aria-label={`Open ${project.name}`}
        >
          Open
        </Link>
      </div>
    </li>
  );
}

function BranchPreview({ project }: { project: Project }) {
  const shown = project.branches.slice(0, BRANCHES_PER_CARD);
  return (
    <div className="mt-3 text-sm">
      <ul className="space-y-1">
        {shown.map((branch) => (
          <li key={branch.id} className="flex items-center gap-2">
            <span className="truncate">{branch.name}</span>
            {branch.is_default && (
              <span className="rounded bg-indigo-100 px-1.5 text-xs text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200">
                Default
              </span>
            )}
          </li>
        ))}
      </ul>
      <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
        {project.branches.length} {project.branches.length === 1 ? 'branch' : 'branches'}
      </p>
    </div>
  );
}

function ProjectsTable({ projects, onDelete }: ProjectListProps) {
  return (
    <section aria-labelledby="your-projects">
      <h2 id="your-projects" className="scroll-mt-20 text-xl font-semibold">
        Your Projects
      </h2>
      <div className="mt-4 overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
        <table className="min-w-full divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
          <thead className="bg-zinc-50 text-left dark:bg-zinc-900">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Project
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Status
              </th>
              <th scope="col" className="hidden px-4 py-3 font-semibold sm:table-cell">
                Updated
              </th>
              <th scope="col" className="hidden px-4 py-3 font-semibold sm:table-cell">
                Branches
              </th>
              <th scope="col" className="px-4 py-3 text-right font-semibold">
                Actions
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {projects.map((project) => (
              <tr key={project.id}>
                <td className="px-4 py-3">
                  <Link to={`/projects/${project.id}`} className={linkButton}>
                    {project.name}
                  </Link>
                </td>
                <td className="px-4 py-3">
                  <PrivacyBadge isPrivate={project.is_private} />
                </td>
                <td className="hidden px-4 py-3 sm:table-cell">{formatDate(project.updated_at)}</td>
                <td className="hidden px-4 py-3 sm:table-cell">{project.branches.length}</td>
                <td className="px-4 py-3 text-right">
                  <button
                    type="button"
                    className="rounded px-2 py-1 text-sm font-medium text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-red-400 dark:hover:bg-red-950"
                    aria-label={`Delete project ${project.name}`}
                    onClick={() => onDelete(project)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function QuickActions() {
  return (
    <section aria-labelledby="quick-actions">
      <h2 id="quick-actions" className="text-xl font-semibold">
        Quick Actions
      </h2>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <Link to="/upload" className={`${cardClass} block hover:border-indigo-400`}>
          <span className="font-semibold">Upload Track</span>
          <span className="mt-1 block text-sm text-zinc-600 dark:text-zinc-300">
            Add a new track or a new version of one.
          </span>
        </Link>
        <Link to="/download" className={`${cardClass} block hover:border-indigo-400`}>
          <span className="font-semibold">Download</span>
          <span className="mt-1 block text-sm text-zinc-600 dark:text-zinc-300">
            Get the desktop app for macOS, Windows and Linux.
          </span>
        </Link>
      </div>
    </section>
  );
}
