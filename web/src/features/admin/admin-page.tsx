import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { PageSpinner } from '../../ui/spinner';
import { useAdminUsers } from './admin-api';
import { AdminHealth } from './admin-health';
import { AdminActions, AdminLinkDefaults, AdminStorage } from './admin-instance';
import { AdminPeople } from './admin-people';
import { AdminSignups } from './admin-signups';
import { isNotAvailable } from './debug-api';

/**
 * /admin, for the instance's admins (ADMIN_EMAILS): its people, who may sign up, the defaults of
 * new share links, the storage used, the server's health and every admin action. For anyone else
 * the API answers 404 and the page says it is not theirs.
 */
export function AdminPage() {
  useDocumentTitle('Admin · Takes');
  const users = useAdminUsers();

  if (users.isPending) return <PageSpinner label="Loading the admin page" />;
  if (users.isError && isNotAvailable(users.error)) {
    return (
      <div className="mx-auto max-w-4xl space-y-6 px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight">Admin</h1>
        <Alert tone="info">
          The admin page is only available to the administrators of this Takes server. Ask the
          person who runs it to add your verified email address to ADMIN_EMAILS.
        </Alert>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Admin</h1>
      <AdminPeople />
      <div className="grid gap-6 lg:grid-cols-2">
        <AdminSignups />
        <div className="space-y-6">
          <AdminLinkDefaults />
          <AdminStorage />
        </div>
      </div>
      <AdminHealth />
      <AdminActions />
    </div>
  );
}
