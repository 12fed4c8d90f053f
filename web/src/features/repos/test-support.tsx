import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Bounce, Repository } from '@takes/contract';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { AuthContext, type AuthContextValue } from '../auth/auth-context';
import { fakePlayer } from '../player/test-support';
import { AudioPlayerContext, type AudioPlayerApi } from '../player/use-audio-player';

/** Test-only helpers for the repository and bounces screens. */

export const signedIn: AuthContextValue = {
  status: 'signed-in',
  user: { id: 'u1', email: 'me@example.com', name: null, display_name: null, avatar_url: null },
  refresh: () => Promise.resolve(),
  signOut: () => Promise.resolve(),
  acceptSession: () => undefined,
};

export const signedOut: AuthContextValue = {
  status: 'signed-out',
  user: null,
  refresh: () => Promise.resolve(),
  signOut: () => Promise.resolve(),
  acceptSession: () => undefined,
};

/** A page standing in for another route: shows where it is and the `from` it was sent with. */
export function Landed({ name }: { name: string }) {
  const location = useLocation();
  const from = (location.state as { from?: { pathname: string } } | null)?.from;
  return (
    <div>
      <p>{name}</p>
      <p data-testid="landed-at">{`${location.pathname}${location.search}`}</p>
      {from && <p data-testid="landed-from">{from.pathname}</p>}
    </div>
  );
}

/**
 * Renders `element` at `url`, matched by the route `pattern`, with a query client and player;
 * signed in as u1 unless `auth` says otherwise; `routes` add other pages to land on.
 */
export function renderAt(
  element: ReactElement,
  {
    pattern,
    url,
    player = fakePlayer(),
    auth = signedIn,
    routes = [],
  }: {
    pattern: string;
    url: string;
    player?: AudioPlayerApi;
    auth?: AuthContextValue;
    routes?: RouteObject[];
  },
) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [{ path: pattern, element }, ...routes, { path: '*', element: <p>Elsewhere</p> }],
    { initialEntries: [url] },
  );
  return render(
    <QueryClientProvider client={client}>
      <AuthContext value={auth}>
        <AudioPlayerContext value={player}>
          <RouterProvider router={router} />
        </AudioPlayerContext>
      </AuthContext>
    </QueryClientProvider>,
  );
}

type Responder = (url: URL, init: RequestInit | undefined) => unknown;

/**
 * Stubs fetch with JSON answers by path (query string ignored unless the key has one); an
 * answer `{ status, body }` sets the status. Unknown paths answer 404.
 */
export function stubApi(routes: Record<string, unknown>) {
  const fetchMock = vi.fn((input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    const key = url.pathname + url.search in routes ? url.pathname + url.search : url.pathname;
    if (!(key in routes)) {
      return Promise.resolve(new Response(JSON.stringify({ error: 'Not found' }), { status: 404 }));
    }
    const route = routes[key];
    const answer = typeof route === 'function' ? (route as Responder)(url, init) : route;
    if (answer instanceof Promise) return answer;
    const { status = 200, body = answer } =
      typeof answer === 'object' && answer !== null && 'status' in answer
        ? (answer as { status: number; body: unknown })
        : { body: answer };
    return Promise.resolve(new Response(JSON.stringify(body), { status }));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export function repository(overrides: Partial<Repository> = {}): Repository {
  return {
    id: 'r1',
    name: 'Night Drive',
    cover_url: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    last_activity_at: new Date(Date.now() - 5 * 60_000).toISOString(),
    patch_count: 2,
    bounce_count: 1,
    default_branch: 'main',
    pull_url: 'takes://pull?repo=r1&branch=main',
    role: 'owner',
    ...overrides,
  };
}

export function bounce(overrides: Partial<Bounce> = {}): Bounce {
  return {
    id: 'b1',
    repo_id: 'r1',
    repo_name: 'Night Drive',
    branch: 'main',
    commit_sha: 'a'.repeat(40),
    title: 'Rough mix',
    filename: 'rough-mix.wav',
    mime: 'audio/wav',
    size: 1000,
    duration: 12.6,
    created_at: '2026-01-02T00:00:00.000Z',
    status: 'completed',
    error: null,
    waveform_json: { min: [-0.5, -0.2], max: [0.4, 0.9], duration: 12.6 },
    loudness: null,
    stream_url: '/api/repos/r1/bounces/b1/stream',
    ...overrides,
  };
}
