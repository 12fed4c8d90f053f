import { useDeferredValue, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Project } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { useCurrentUser } from '../auth/use-auth';
import { welcomeName } from '../auth/user-names';
import { CreateProjectModal } from '../projects/create-project-modal';
import { DeleteProjectModal } from '../projects/delete-project-modal';
import { useProjectPages } from '../projects/projects-api';
import { cardClass } from './dashboard-styles';
import { EmptyProjects, RecentProjects, SharedWithYou } from './project-cards';
import { ProjectsSkeleton } from './projects-skeleton';
import { ProjectsTable } from './projects-table';
import { StatCards } from './stat-cards';

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
