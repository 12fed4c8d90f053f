import { Navigate, Outlet, useLocation } from 'react-router';
import { useAuth } from '../features/auth/use-auth';
import { PageSpinner } from '../ui/spinner';

/** Guards the protected routes: signed-out visitors go to /login, which sends them back after. */
export function RequireAuth() {
  const { status } = useAuth();
  const location = useLocation();

  if (status === 'loading') return <PageSpinner label="Checking your session" />;
  if (status === 'signed-out') return <Navigate to="/login" replace state={{ from: location }} />;
  return <Outlet />;
}
