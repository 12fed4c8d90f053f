import { lazy, Suspense } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AuthProvider } from '../features/auth/auth-provider';
import { PageSpinner } from '../ui/spinner';
import { LeaveShareEntry, ShareLayout } from './share-layout';

/**
 * The share page's code (with the API client and its schemas) is asked for as soon as this entry
 * runs, and runs in its own task: the frame paints first, and the phone's main thread is never
 * blocked by one long evaluation of everything at once.
 */
const sharePageModule = import('../features/share/share-page');
const SharePage = lazy(() => sharePageModule.then((m) => ({ default: m.SharePage })));

/** The share entry's only page; every other address is the full app's (see LeaveShareEntry). */
export const shareRoutes: RouteObject[] = [
  {
    element: (
      <AuthProvider>
        <ShareLayout />
      </AuthProvider>
    ),
    children: [
      {
        path: '/share/:hash',
        element: (
          <Suspense fallback={<PageSpinner label="Loading shared version" />}>
            <SharePage />
          </Suspense>
        ),
      },
      { path: '*', element: <LeaveShareEntry /> },
    ],
  },
];

export const shareRouter = createBrowserRouter(shareRoutes);
