import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AuthProvider } from '../features/auth/auth-provider';
import { LoginPage } from '../features/auth/login-page';
import { DesktopAuthPage } from '../features/desktop/desktop-auth-page';
import { DesktopReturnPage } from '../features/desktop/desktop-return-page';
import { LandingPage } from '../features/marketing/landing-page';
import { NotFoundPage } from '../features/marketing/not-found-page';
import { PlaceholderPage } from '../features/placeholder/placeholder-page';
import { ProfilePage } from '../features/profile/profile-page';
import { SettingsPage } from '../features/settings/settings-page';
import { PageSpinner } from '../ui/spinner';
import { AppLayout } from './layout';
import { RequireAuth } from './require-auth';

/** Each workspace screen is its own chunk, so a page loads only its own code. */
const DashboardPage = lazy(() =>
  import('../features/dashboard/dashboard-page').then((m) => ({ default: m.DashboardPage })),
);
const UploadPage = lazy(() =>
  import('../features/upload/upload-page').then((m) => ({ default: m.UploadPage })),
);
const ProjectPage = lazy(() =>
  import('../features/projects/project-page').then((m) => ({ default: m.ProjectPage })),
);
const VersionPage = lazy(() =>
  import('../features/versions/version-page').then((m) => ({ default: m.VersionPage })),
);
const SearchPage = lazy(() =>
  import('../features/search/search-page').then((m) => ({ default: m.SearchPage })),
);
const DebugPage = lazy(() =>
  import('../features/debug/debug-page').then((m) => ({ default: m.DebugPage })),
);

function lazyRoute(path: string, Page: LazyExoticComponent<ComponentType>): RouteObject {
  return {
    path,
    element: (
      <Suspense fallback={<PageSpinner label="Loading page" />}>
        <Page />
      </Suspense>
    ),
  };
}

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
  lazyRoute(
    '/share/:hash',
    lazy(() => import('../features/share/share-page').then((m) => ({ default: m.SharePage }))),
  ),
  { path: '/404', element: <NotFoundPage /> },
];

const protectedRoutes: RouteObject[] = [
  lazyRoute('/dashboard', DashboardPage),
  lazyRoute('/upload', UploadPage),
  lazyRoute('/projects/:projectId', ProjectPage),
  lazyRoute('/projects/:projectId/branches/:branchId/versions/:versionId', VersionPage),
  // Search reads the signed-in user's own projects, so it sits behind the guard.
  lazyRoute('/search', SearchPage),
  placeholder('/bounces', 'Bounces'),
  placeholder('/repositories', 'Repositories'),
  placeholder('/repositories/:repoId', 'Repository'),
  placeholder('/repositories/:repoId/branch/:name', 'Branch'),
  placeholder('/repositories/:repoId/commit/:sha', 'Commit'),
  lazyRoute('/debug', DebugPage),
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
