import { Link } from 'react-router';
import type { Project, SharedProject } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { PrivacyBadge } from '../../ui/badge';
import { linkButton, primaryButton, secondaryButton } from '../../ui/button-styles';
import { RoleBadge } from '../members/role-badge';
import { useSharedProjects } from '../projects/projects-api';
import { cardClass, RECENT_PROJECTS } from './dashboard-styles';

const BRANCHES_PER_CARD = 2;

/** In place of the list while the caller owns no project. */
export function EmptyProjects({ onCreate }: { onCreate: () => void }) {
  return (
    <section className={`${cardClass} py-12 text-center`}>
      <h2 className="text-lg font-semibold">No projects yet</h2>
      <button type="button" className={`${primaryButton} mt-4`} onClick={onCreate}>
        Create New Project
      </button>
    </section>
  );
}

export interface ProjectListProps {
  projects: Project[];
  onDelete: (project: Project) => void;
}

/** The newest projects the caller owns, as cards with their first branches. */
export function RecentProjects({ projects, onDelete }: ProjectListProps) {
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
              <OpenProjectLink project={project} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Projects others own that the caller is a member of; hidden while there are none. */
export function SharedWithYou() {
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
        <OpenProjectLink project={project} />
      </div>
    </li>
  );
}

/** 'Open', to the project's page. */
function OpenProjectLink({ project }: { project: Project }) {
  return (
    <Link
      to={`/projects/${project.id}`}
      className={`${primaryButton} px-3 py-1.5`}
      aria-label={`Open ${project.name}`}
    >
      Open
    </Link>
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
