import { useDocumentTitle } from '../../lib/use-document-title';
import { useCurrentUser } from '../auth/use-auth';
import { welcomeName } from '../auth/user-names';

/** The dashboard's welcome; the projects, stats and quick actions arrive with the dashboard issue. */
export function DashboardPage() {
  useDocumentTitle('Dashboard · Takes');
  const user = useCurrentUser();

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-zinc-900 sm:text-4xl dark:text-white">
        Welcome back, {welcomeName(user)}
      </h1>
    </div>
  );
}
