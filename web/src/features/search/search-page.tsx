import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { PageSpinner } from '../../ui/spinner';
import { useSearch } from './search-api';

const sectionClass =
  'rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900';
const resultLink =
  'block rounded-md px-3 py-2 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-zinc-800';

export function SearchPage() {
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  useDocumentTitle(q ? `Search: ${q} · Takes` : 'Search · Takes');
  const results = useSearch(q);

  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">{q ? <>Results for “{q}”</> : 'Search'}</h1>
      {!q ? (
        <p className="text-zinc-600 dark:text-zinc-300">
          Type in the search box to find your projects, branches and versions.
        </p>
      ) : results.isPending ? (
        <PageSpinner label="Searching" />
      ) : results.isError ? (
        <Alert tone="error">
          {errorMessage(results.error, 'Search failed. Please try again.')}
        </Alert>
      ) : results.data.projects.length +
          results.data.branches.length +
          results.data.versions.length ===
        0 ? (
        <p className="text-zinc-600 dark:text-zinc-300">No results for “{q}”.</p>
      ) : (
        <>
          {results.data.projects.length > 0 && (
            <section aria-labelledby="search-projects" className={sectionClass}>
              <h2 id="search-projects" className="mb-2 text-lg font-semibold">
                Projects
              </h2>
              <ul>
                {results.data.projects.map((project) => (
                  <li key={project.id}>
                    <Link to={`/projects/${project.id}`} className={resultLink}>
                      <span className="font-medium">{project.name}</span>
                      <span className="block text-sm text-zinc-600 dark:text-zinc-300">
                        {project.description || 'No description provided.'}
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {results.data.branches.length > 0 && (
            <section aria-labelledby="search-branches" className={sectionClass}>
              <h2 id="search-branches" className="mb-2 text-lg font-semibold">
                Branches
              </h2>
              <ul>
                {results.data.branches.map((branch) => (
                  <li key={branch.id}>
                    <Link to={`/projects/${branch.project_id}`} className={resultLink}>
                      <span className="font-medium">{branch.name}</span>
                      <span className="block text-sm text-zinc-600 dark:text-zinc-300">
                        {branch.project_name}
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {results.data.versions.length > 0 && (
            <section aria-labelledby="search-versions" className={sectionClass}>
              <h2 id="search-versions" className="mb-2 text-lg font-semibold">
                Versions
              </h2>
              <ul>
                {results.data.versions.map((version) => (
                  <li key={version.id}>
                    <Link
                      to={`/projects/${version.project_id}/branches/${version.branch_id}/versions/${version.id}`}
                      className={resultLink}
                    >
                      <span className="font-medium">
                        Version {version.version_number}: {version.message || 'No message'}
                      </span>
                      <span className="block text-sm text-zinc-600 dark:text-zinc-300">
                        {version.project_name} / {version.branch_name} ·{' '}
                        {formatDate(version.created_at)}
                      </span>
                      {version.tags.length > 0 && (
                        <span className="mt-1 flex flex-wrap gap-1">
                          {version.tags.map((tag) => (
                            <Badge key={tag}>{tag}</Badge>
                          ))}
                        </span>
                      )}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </div>
  );
}
