import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AuthProvider } from '../features/auth/auth-provider';
import { LandingPage } from '../features/marketing/landing-page';
import { NotFoundPage } from '../features/marketing/not-found-page';
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
const BouncesPage = lazy(() =>
  import('../features/bounces/bounces-page').then((m) => ({ default: m.BouncesPage })),
);
const RepositoriesPage = lazy(() =>
  import('../features/repos/repositories-page').then((m) => ({ default: m.RepositoriesPage })),
);
const RepoPage = lazy(() =>
  import('../features/repos/repo-page').then((m) => ({ default: m.RepoPage })),
);
const BranchPage = lazy(() =>
  import('../features/compare/branch-page').then((m) => ({ default: m.BranchPage })),
);
const VersionComparePage = lazy(() =>
  import('../features/compare/version-compare-page').then((m) => ({
    default: m.VersionComparePage,
  })),
);
const CommitPage = lazy(() =>
  import('../features/repos/commit-page').then((m) => ({ default: m.CommitPage })),
);
const CollectionsPage = lazy(() =>
  import('../features/collections/collections-page').then((m) => ({
    default: m.CollectionsPage,
  })),
);
const CollectionPage = lazy(() =>
  import('../features/collections/collection-page').then((m) => ({
    default: m.CollectionPage,
  })),
);
const DebugPage = lazy(() =>
  import('../features/debug/debug-page').then((m) => ({ default: m.DebugPage })),
);

/** Every public page but the landing is its own chunk too, so the landing stays small. */
const AboutPage = lazy(() =>
  import('../features/marketing/about-page').then((m) => ({ default: m.AboutPage })),
);
const RoadmapPage = lazy(() =>
  import('../features/marketing/roadmap-page').then((m) => ({ default: m.RoadmapPage })),
);
const FeaturesPage = lazy(() =>
  import('../features/marketing/features-page').then((m) => ({ default: m.FeaturesPage })),
);
const CareersPage = lazy(() =>
  import('../features/marketing/careers-page').then((m) => ({ default: m.CareersPage })),
);
const DownloadPage = lazy(() =>
  import('../features/marketing/download-page').then((m) => ({ default: m.DownloadPage })),
);
const PricingPage = lazy(() =>
  import('../features/marketing/pricing-page').then((m) => ({ default: m.PricingPage })),
);
const ResourcesPage = lazy(() =>
  import('../features/marketing/resources-page').then((m) => ({ default: m.ResourcesPage })),
);
const MobilePage = lazy(() =>
  import('../features/marketing/mobile-page').then((m) => ({ default: m.MobilePage })),
);
const ContactPage = lazy(() =>
  import('../features/contact/contact-page').then((m) => ({ default: m.ContactPage })),
);
const BlogListPage = lazy(() =>
  import('../features/blog/blog-list-page').then((m) => ({ default: m.BlogListPage })),
);
const BlogPostPage = lazy(() =>
  import('../features/blog/blog-post-page').then((m) => ({ default: m.BlogPostPage })),
);
const TermsPage = lazy(() =>
  import('../features/legal/terms-page').then((m) => ({ default: m.TermsPage })),
);
const PrivacyPage = lazy(() =>
  import('../features/legal/privacy-page').then((m) => ({ default: m.PrivacyPage })),
);
const CopyrightPage = lazy(() =>
  import('../features/legal/copyright-page').then((m) => ({ default: m.CopyrightPage })),
);
const CookiesPage = lazy(() =>
  import('../features/legal/cookies-page').then((m) => ({ default: m.CookiesPage })),
);

const LoginPage = lazy(() =>
  import('../features/auth/login-page').then((m) => ({ default: m.LoginPage })),
);
const MagicLinkPage = lazy(() =>
  import('../features/auth/magic-link-page').then((m) => ({ default: m.MagicLinkPage })),
);
const DesktopReturnPage = lazy(() =>
  import('../features/desktop/desktop-return-page').then((m) => ({
    default: m.DesktopReturnPage,
  })),
);
const DesktopAuthPage = lazy(() =>
  import('../features/desktop/desktop-auth-page').then((m) => ({ default: m.DesktopAuthPage })),
);
const ProfilePage = lazy(() =>
  import('../features/profile/profile-page').then((m) => ({ default: m.ProfilePage })),
);
const InvitePage = lazy(() =>
  import('../features/members/invite-page').then((m) => ({ default: m.InvitePage })),
);
const NotificationsPage = lazy(() =>
  import('../features/notifications/notifications-page').then((m) => ({
    default: m.NotificationsPage,
  })),
);
const SettingsPage = lazy(() =>
  import('../features/settings/settings-page').then((m) => ({ default: m.SettingsPage })),
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

const publicRoutes: RouteObject[] = [
  { path: '/', element: <LandingPage /> },
  lazyRoute('/login', LoginPage),
  lazyRoute('/magic-link', MagicLinkPage),
  lazyRoute('/about', AboutPage),
  lazyRoute('/roadmap', RoadmapPage),
  lazyRoute('/features', FeaturesPage),
  lazyRoute('/contact', ContactPage),
  lazyRoute('/careers', CareersPage),
  lazyRoute('/download', DownloadPage),
  lazyRoute('/desktop-return', DesktopReturnPage),
  lazyRoute('/blog', BlogListPage),
  lazyRoute('/blog/:slug', BlogPostPage),
  lazyRoute('/terms', TermsPage),
  lazyRoute('/privacy', PrivacyPage),
  lazyRoute('/copyright', CopyrightPage),
  lazyRoute('/cookies', CookiesPage),
  lazyRoute('/pricing', PricingPage),
  lazyRoute('/resources', ResourcesPage),
  lazyRoute('/mobile', MobilePage),
  // The emailed invitation: it says what it offers to anyone holding the link, and asks to sign in
  // only to accept.
  lazyRoute('/invite/:token', InvitePage),
  // A project's page decides itself: members see the workspace, anyone else a Public project's
  // read-only page, and a signed-out visitor of anything else goes to sign-in (as the guard does).
  lazyRoute('/projects/:projectId', ProjectPage),
  lazyRoute(
    '/share/:hash',
    lazy(() => import('../features/share/share-page').then((m) => ({ default: m.SharePage }))),
  ),
  { path: '/404', element: <NotFoundPage /> },
];

const protectedRoutes: RouteObject[] = [
  lazyRoute('/dashboard', DashboardPage),
  lazyRoute('/upload', UploadPage),
  lazyRoute('/projects/:projectId/branches/:branchId/versions/:versionId', VersionPage),
  lazyRoute('/projects/:projectId/compare', VersionComparePage),
  // Search reads the signed-in user's own projects, so it sits behind the guard.
  lazyRoute('/search', SearchPage),
  lazyRoute('/bounces', BouncesPage),
  lazyRoute('/repositories', RepositoriesPage),
  lazyRoute('/repositories/:repoId', RepoPage),
  lazyRoute('/repositories/:repoId/branch/:name', BranchPage),
  lazyRoute('/repositories/:repoId/commit/:sha', CommitPage),
  lazyRoute('/collections', CollectionsPage),
  lazyRoute('/collections/:id', CollectionPage),
  lazyRoute('/debug', DebugPage),
  lazyRoute('/profile', ProfilePage),
  lazyRoute('/settings', SettingsPage),
  lazyRoute('/notifications', NotificationsPage),
  lazyRoute('/desktop-auth', DesktopAuthPage),
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
