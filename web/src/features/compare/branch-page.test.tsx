import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Bounce } from '@takes/contract';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakePlayer } from '../player/test-support';
import { AudioPlayerContext } from '../player/use-audio-player';
import { BranchPage } from './branch-page';

function bounce(id: string, lufs: number | null, createdAt: string): Bounce {
  return {
    id,
    repo_id: 'r1',
    repo_name: 'Album',
    branch: 'feature/x',
    commit_sha: 'a'.repeat(40),
    title: 'Mix',
    filename: 'mix.wav',
    mime: 'audio/wav',
    size: 1000,
    duration: 12,
    created_at: createdAt,
    status: 'completed',
    error: null,
    waveform_json: { min: [-0.5, -0.2], max: [0.5, 0.2], duration: 12 },
    loudness: { integrated_lufs: lufs, loudness_range: null, true_peak_dbfs: null },
    stream_url: `/api/repos/r1/bounces/${id}/stream`,
  };
}

const repo = {
  id: 'r1',
  name: 'Album',
  cover_url: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  last_activity_at: '2026-01-01T00:00:00.000Z',
  patch_count: 2,
  bounce_count: 2,
  default_branch: 'main',
  pull_url: 'takes://pull?repo=r1&branch=main',
};

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** Serves the repository and its bounces; `bounces` null never answers (loading). */
function serve(bounces: Bounce[] | null | 'error') {
  const fetchMock = vi.fn((input: RequestInfo | URL) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url === '/api/repos/r1') return Promise.resolve(json({ repo }));
    if (url.startsWith('/api/repos/r1/bounces?')) {
      if (bounces === null) return new Promise<Response>(() => {});
      if (bounces === 'error') return Promise.resolve(new Response('', { status: 500 }));
      return Promise.resolve(json({ bounces }));
    }
    // Stream downloads: the compare engine's decode is not under test here.
    return Promise.resolve(new Response('', { status: 404 }));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [{ path: '/repositories/:repoId/branch/:name', element: <BranchPage /> }],
    { initialEntries: ['/repositories/r1/branch/feature%2Fx'] },
  );
  return render(
    <QueryClientProvider client={queryClient}>
      <AudioPlayerContext.Provider value={fakePlayer()}>
        <RouterProvider router={router} />
      </AudioPlayerContext.Provider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const newer = bounce('b2', -14, '2026-02-02T00:00:00.000Z');
const older = bounce('b1', -20, '2026-02-01T00:00:00.000Z');

describe('BranchPage', () => {
  it('shows the decoded branch name and 1 plus 5 skeletons while loading', async () => {
    serve(null);
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Branch: feature/x' })).toBeTruthy();
    expect(screen.getByText('Latest bounce pinned with history below.')).toBeTruthy();
    const skeleton = screen.getByRole('status', { name: 'Loading bounces' });
    expect(skeleton.children).toHaveLength(6);
  });

  it('says when the branch has no bounces', async () => {
    serve([]);
    renderPage();
    expect(await screen.findByText('No bounces on this branch yet.')).toBeTruthy();
  });

  it("shows 'Failed to load' when the server gives no message", async () => {
    serve('error');
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load');
  });

  it('pins the latest bounce and fills the slots from Set A / Set B', async () => {
    serve([newer, older]);
    renderPage();
    const latest = await screen.findByRole('region', { name: 'Latest' });
    const history = screen.getByRole('region', { name: 'History' });
    expect(within(history).getAllByRole('listitem')).toHaveLength(1);

    const panel = screen.getByTestId('compare-panel');
    expect(within(panel).getByText('Select a bounce as A')).toBeTruthy();
    expect(within(panel).getByText('Select a bounce as B')).toBeTruthy();
    const toggle = screen.getByRole('button', { name: 'Toggle A/B (Space)' });
    expect(toggle).toHaveProperty('disabled', true);
    expect(panel.dataset.activeSide).toBe('A');
    expect(panel.dataset.playing).toBe('false');

    fireEvent.click(within(history).getByRole('button', { name: 'Set A' }));
    fireEvent.click(within(latest).getByRole('button', { name: 'Set B' }));
    expect(toggle).toHaveProperty('disabled', false);
    expect(within(panel).queryByText('Select a bounce as A')).toBeNull();
    expect(screen.getByTestId('loudness-summary').textContent).toBe(
      'B is 6.0 LU louder than A — matched',
    );

    const level = within(screen.getByRole('group', { name: 'Slot A' })).getByRole('slider', {
      name: 'Level',
    });
    expect(level).toMatchObject({ min: '0', max: '1', step: '0.01', value: '1' });

    // Space toggles from the page, not from a field that uses it.
    fireEvent.keyDown(document.body, { key: ' ' });
    expect(panel.dataset.activeSide).toBe('B');
    fireEvent.keyDown(screen.getByRole('spinbutton', { name: 'Start (s)' }), { key: ' ' });
    expect(panel.dataset.activeSide).toBe('B');
    fireEvent.click(toggle);
    expect(panel.dataset.activeSide).toBe('A');
    // b selects B.
    fireEvent.keyDown(document.body, { key: 'b' });
    expect(panel.dataset.activeSide).toBe('B');

    fireEvent.click(screen.getByRole('switch', { name: 'Match loudness' }));
    expect(screen.getByTestId('loudness-summary').textContent).toBe(
      'B is 6.0 LU louder than A — not matched',
    );

    fireEvent.click(within(screen.getByRole('group', { name: 'Slot A' })).getByText('Clear'));
    expect(within(panel).getByText('Select a bounce as A')).toBeTruthy();
    expect(toggle).toHaveProperty('disabled', true);
  });

  it('shows the region end default once a start is entered', async () => {
    serve([newer, older]);
    renderPage();
    await screen.findByRole('region', { name: 'Latest' });
    const start = screen.getByRole('spinbutton', { name: 'Start (s)' });
    const end = screen.getByRole('spinbutton', { name: 'End (s)' });
    expect(start).toMatchObject({ min: '0', step: '0.1' });
    fireEvent.change(start, { target: { value: '4' } });
    expect(end.getAttribute('placeholder')).toBe('14');
  });
});
