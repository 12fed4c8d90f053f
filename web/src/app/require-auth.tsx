import { Outlet } from 'react-router';

export function RequireAuth() {
  // The session check (redirect to /login, remembering the origin) arrives with the accounts issue.
  return <Outlet />;
}
