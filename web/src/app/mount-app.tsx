import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider, type RouterProviderProps } from 'react-router/dom';
import { applyTheme, readInitialTheme } from './theme';

/**
 * An answer this recent is used as it is by a component that mounts and asks for it again (a
 * page's inner parts mount once its first queries are back: the project page asked for the
 * project and its branches twice on every visit). Changes never wait for it: live events and
 * every mutation invalidate what they change, which refetches at once whatever its age.
 */
export const FRESH_FOR_MS = 3_000;

/**
 * Renders an entry's router into #root, as both entries (main.tsx, share-main.tsx) do. It imports
 * nothing but React, the router's provider, react-query and the theme, so the share entry stays
 * free of the app's code.
 */
export function mountApp(router: RouterProviderProps['router']): void {
  const rootElement = document.getElementById('root');
  if (!rootElement) {
    throw new Error('Root element not found');
  }

  const queryClient = new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: FRESH_FOR_MS },
    },
  });

  // Apply the remembered theme before the first render so the page does not flash.
  applyTheme(readInitialTheme());

  createRoot(rootElement).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
