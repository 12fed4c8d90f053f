import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AuthProvider } from '../features/auth/auth-provider';
import { LoginPage } from '../features/auth/login-page';
import { DashboardPage } from '../features/dashboard/dashboard-page';
import { DesktopAuthPage } from '../features/desktop/desktop-auth-page';
import { DesktopReturnPage } from '../features/desktop/desktop-return-page';
import { LandingPage } from '../features/marketing/landing-page';
import { NotFoundPage } from '../features/marketing/not-found-page';
import { PlaceholderPage } from '../features/placeholder/placeholder-page';
import { ProfilePage } from '../features/profile/profile-page';
import { SettingsPage } from '../features/settings/settings-page';
import { AppLayout } from './layout';
import { RequireAuth } from './require-auth';

/** A route whose screen is not built yet. */
function placeholder(path: string, title: string): RouteObject {
  return { path, element: <PlaceholderPage title={title} /> };
}

const publicRoutes: RouteObject[] = [
  { path: '/', element: <LandingPage /> },
  { path: '/login', element: <LoginPage /> },
  placeholder('/about', 'About'),
  placeholder('/roadmap', 'Roadmap'),
  placeholder('/features', 'Features'),
  placeholder('/contact', 'Contact'),
  placeholder('/careers', 'Careers'),
  placeholder('/download', 'Download'),
  { path: '/desktop-return', element: <DesktopReturnPage /> },
  placeholder('/blog', 'Blog'),
  placeholder('/blog/:slug', 'Blog post'),
  placeholder('/terms', 'Terms of Use'),
  placeholder('/privacy', 'Privacy Policy'),
  placeholder('/copyright', 'Copyright Policy'),
  placeholder('/cookies', 'Cookie Policy'),
  placeholder('/share/:hash', 'Shared version'),
  // The spec links to /search?q= from the navbar search box without saying whether it is guarded.
  placeholder('/search', 'Search'),
  { path: '/404', element: <NotFoundPage /> },
];

const protectedRoutes: RouteObject[] = [
  { path: '/dashboard', element: <DashboardPage /> },
  placeholder('/upload', 'Upload'),
  placeholder('/projects/:projectId', 'Project'),
  placeholder('/projects/:projectId/branches/:branchId/versions/:versionId', 'Version'),
  placeholder('/bounces', 'Bounces'),
  placeholder('/repositories', 'Repositories'),
  placeholder('/repositories/:repoId', 'Repository'),
  placeholder('/repositories/:repoId/branch/:name', 'Branch'),
  placeholder('/repositories/:repoId/commit/:sha', 'Commit'),
  placeholder('/debug', 'Debug'),
  { path: '/profile', element: <ProfilePage /> },
  { path: '/settings', element: <SettingsPage /> },
  { path: '/desktop-auth', element: <DesktopAuthPage /> },
];

export const routes: RouteObject[] = [
  {
    element: (
      <AuthProvider>
        <AppLayout />
      </AuthProvider>
    ),
    children: [
      ...publicRoutes,
      { element: <RequireAuth />, children: protectedRoutes },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
