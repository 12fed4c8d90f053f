import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, matchRoutes, Navigate, type RouteObject } from 'react-router';
import { AuthProvider } from '../features/auth/auth-provider';
import { LandingPage } from '../features/marketing/landing-page';
import { NotFoundPage } from '../features/marketing/not-found-page';
import { PageSpinner } from '../ui/spinner';
import { AppLayout } from './layout';
import { RequireAuth } from './require-auth';

/** A page's chunk, as a lazy component that can also be asked to start loading before it renders. */
type Page = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> };

function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): Page {
  let loading: Promise<{ default: ComponentType }> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => ({ default: pick(module) }),
      (error: unknown) => {
        // A failed download is tried again the next time the page is asked for.
        loading = undefined;
        throw error;
      },
    ));
  return Object.assign(lazy(preload), { preload });
}

/** Each workspace screen is its own chunk, so a page loads only its own code. */
const DashboardPage = page(
  () => import('../features/dashboard/dashboard-page'),
  (m) => m.DashboardPage,
);
const UploadPage = page(
  () => import('../features/upload/upload-page'),
  (m) => m.UploadPage,
);
const ProjectPage = page(
  () => import('../features/projects/project-page'),
  (m) => m.ProjectPage,
);
const VersionPage = page(
  () => import('../features/versions/version-page'),
  (m) => m.VersionPage,
);
const SearchPage = page(
  () => import('../features/search/search-page'),
  (m) => m.SearchPage,
);
const BouncesPage = page(
  () => import('../features/bounces/bounces-page'),
  (m) => m.BouncesPage,
);
const RepositoriesPage = page(
  () => import('../features/repos/repositories-page'),
  (m) => m.RepositoriesPage,
);
const RepoPage = page(
  () => import('../features/repos/repo-page'),
  (m) => m.RepoPage,
);
const BranchPage = page(
  () => import('../features/compare/branch-page'),
  (m) => m.BranchPage,
);
const VersionComparePage = page(
  () => import('../features/compare/version-compare-page'),
  (m) => m.VersionComparePage,
);
const BlindTestResultsPage = page(
  () => import('../features/blind-tests/owner/blind-test-results-page'),
  (m) => m.BlindTestResultsPage,
);
const CommitPage = page(
  () => import('../features/repos/commit-page'),
  (m) => m.CommitPage,
);
const CollectionsPage = page(
  () => import('../features/collections/collections-page'),
  (m) => m.CollectionsPage,
);
const CollectionPage = page(
  () => import('../features/collections/collection-page'),
  (m) => m.CollectionPage,
);
const AdminPage = page(
  () => import('../features/admin/admin-page'),
  (m) => m.AdminPage,
);

/** Every public page but the landing is its own chunk too, so the landing stays small. */
const AboutPage = page(
  () => import('../features/marketing/about-page'),
  (m) => m.AboutPage,
);
const RoadmapPage = page(
  () => import('../features/marketing/roadmap-page'),
  (m) => m.RoadmapPage,
);
const FeaturesPage = page(
  () => import('../features/marketing/features-page'),
  (m) => m.FeaturesPage,
);
const CareersPage = page(
  () => import('../features/marketing/careers-page'),
  (m) => m.CareersPage,
);
const DownloadPage = page(
  () => import('../features/marketing/download-page'),
  (m) => m.DownloadPage,
);
const PricingPage = page(
  () => import('../features/marketing/pricing-page'),
  (m) => m.PricingPage,
);
const ResourcesPage = page(
  () => import('../features/marketing/resources-page'),
  (m) => m.ResourcesPage,
);
const MobilePage = page(
  () => import('../features/marketing/mobile-page'),
  (m) => m.MobilePage,
);
const ContactPage = page(
  () => import('../features/contact/contact-page'),
  (m) => m.ContactPage,
);
const BlogListPage = page(
  () => import('../features/blog/blog-list-page'),
  (m) => m.BlogListPage,
);
const BlogPostPage = page(
  () => import('../features/blog/blog-post-page'),
  (m) => m.BlogPostPage,
);
const TermsPage = page(
  () => import('../features/legal/terms-page'),
  (m) => m.TermsPage,
);
const PrivacyPage = page(
  () => import('../features/legal/privacy-page'),
  (m) => m.PrivacyPage,
);
const CopyrightPage = page(
  () => import('../features/legal/copyright-page'),
  (m) => m.CopyrightPage,
);
const CookiesPage = page(
  () => import('../features/legal/cookies-page'),
  (m) => m.CookiesPage,
);

const LoginPage = page(
  () => import('../features/auth/login-page'),
  (m) => m.LoginPage,
);
const MagicLinkPage = page(
  () => import('../features/auth/magic-link-page'),
  (m) => m.MagicLinkPage,
);
const DesktopReturnPage = page(
  () => import('../features/desktop/desktop-return-page'),
  (m) => m.DesktopReturnPage,
);
const DesktopAuthPage = page(
  () => import('../features/desktop/desktop-auth-page'),
  (m) => m.DesktopAuthPage,
);
const ProfilePage = page(
  () => import('../features/profile/profile-page'),
  (m) => m.ProfilePage,
);
const InvitePage = page(
  () => import('../features/members/invite-page'),
  (m) => m.InvitePage,
);
const JoinPage = page(
  () => import('../features/members/join-page'),
  (m) => m.JoinPage,
);
const NotificationsPage = page(
  () => import('../features/notifications/notifications-page'),
  (m) => m.NotificationsPage,
);
const GuestUploadPage = page(
  () => import('../features/guest-upload/guest-upload-page'),
  (m) => m.GuestUploadPage,
);
const SettingsPage = page(
  () => import('../features/settings/settings-page'),
  (m) => m.SettingsPage,
);

function lazyRoute(path: string, Page: Page): RouteObject {
  return {
    path,
    handle: { preload: Page.preload } satisfies PageHandle,
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
  // An 'Upload link': a guest without an account sends files to the team.
  lazyRoute('/upload/:key', GuestUploadPage),
  // An invite link from a group chat: the same, joining at the link's role.
  lazyRoute('/join/:key', JoinPage),
  // A project's page decides itself: members see the workspace, anyone else a Public project's
  // read-only page, and a signed-out visitor of anything else goes to sign-in (as the guard does).
  lazyRoute('/projects/:projectId', ProjectPage),
  lazyRoute(
    '/share/:hash',
    page(
      () => import('../features/share/share-page'),
      (m) => m.SharePage,
    ),
  ),
  { path: '/404', element: <NotFoundPage /> },
];

const protectedRoutes: RouteObject[] = [
  lazyRoute('/dashboard', DashboardPage),
  lazyRoute('/upload', UploadPage),
  lazyRoute('/projects/:projectId/branches/:branchId/versions/:versionId', VersionPage),
  lazyRoute('/projects/:projectId/compare', VersionComparePage),
  lazyRoute('/projects/:projectId/blind-tests/:testId', BlindTestResultsPage),
  // Search reads the signed-in user's own projects, so it sits behind the guard.
  lazyRoute('/search', SearchPage),
  lazyRoute('/bounces', BouncesPage),
  lazyRoute('/repositories', RepositoriesPage),
  lazyRoute('/repositories/:repoId', RepoPage),
  lazyRoute('/repositories/:repoId/branch/:name', BranchPage),
  lazyRoute('/repositories/:repoId/commit/:sha', CommitPage),
  lazyRoute('/collections', CollectionsPage),
  lazyRoute('/collections/:id', CollectionPage),
  lazyRoute('/admin', AdminPage),
  // The health and debug report moved to the admin page.
  { path: '/debug', element: <Navigate to="/admin#health" replace /> },
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

interface PageHandle {
  preload: () => Promise<unknown>;
}

/**
 * Starts downloading the chunk of the page at `pathname` (and, through Vite's preload list, the
 * chunks it imports). On a first visit the app otherwise asks for it only when it renders the
 * route: after its own bundle has run and, for a page behind sign-in, after the session check
 * has come back, one more round trip before the page can draw.
 */
export function preloadPage(pathname: string): void {
  for (const match of matchRoutes(routes, pathname) ?? []) {
    const handle = match.route.handle as PageHandle | undefined;
    void handle?.preload().catch(() => {
      // The page's own render reports a chunk that cannot load.
    });
  }
}

preloadPage(window.location.pathname);
export const router = createBrowserRouter(routes);
