import { Link } from 'react-router';
import { formatDate } from '../../lib/format';
import { PrivacyBadge } from '../../ui/badge';
import { linkButton } from '../../ui/button-styles';
import type { ProjectListProps } from './project-cards';

/** 'Your Projects': every project the caller owns, as a table (the target of 'View all'). */
export function ProjectsTable({ projects, onDelete }: ProjectListProps) {
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
