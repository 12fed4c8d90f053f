import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt, stubApi } from '../repos/test-support';
import { project, sharedProject } from '../projects/test-support';
import { DashboardPage } from './dashboard-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const stats = { projects: 2, tracks: 2, last_update: null, versions_last_month: 0 };

function renderDashboard() {
  renderAt(<DashboardPage />, { pattern: '/dashboard', url: '/dashboard' });
}

describe("DashboardPage: 'Shared with you'", () => {
  it("shows projects others own with the owner's name and the caller's role, without Delete", async () => {
    stubApi({
      '/api/stats': stats,
      '/api/projects': [project()],
      '/api/projects/shared': [
        sharedProject(),
        sharedProject({
          id: 'p3',
          name: 'Live Set',
          description: null,
          is_private: false,
          role: 'viewer',
          owner: { id: 'u8', name: 'Dee Drummer', avatar_url: null },
        }),
      ],
    });
    renderDashboard();

    const section = await screen.findByRole('region', { name: 'Shared with you' });
    // The cards (each also lists a few branches).
    const cards = [...section.querySelector('ul')!.children] as HTMLElement[];
    expect(cards).toHaveLength(2);

    const [first, second] = cards as [HTMLElement, HTMLElement];
    expect(within(first).getByRole('heading', { name: 'Band Demo' })).toBeTruthy();
    expect(within(first).getByText('Editor')).toBeTruthy();
    expect(within(first).getByText('Private')).toBeTruthy();
    expect(within(first).getByText('Synth-pop single')).toBeTruthy();
    expect(within(first).getByText('Owner: Olive Owner')).toBeTruthy();
    expect(within(first).getByText(/^Updated /)).toBeTruthy();
    expect(within(first).getByRole('link', { name: 'Open Band Demo' }).getAttribute('href')).toBe(
      '/projects/p2',
    );
    expect(within(section).queryByRole('button', { name: /Delete/ })).toBeNull();

    expect(within(second).getByText('Viewer')).toBeTruthy();
    expect(within(second).getByText('Public')).toBeTruthy();
    expect(within(second).getByText('No description provided.')).toBeTruthy();
    expect(within(second).getByText('Owner: Dee Drummer')).toBeTruthy();

    // 'Your Projects' is unchanged: the caller's own projects only.
    const yours = await screen.findByRole('region', { name: 'Your Projects' });
    expect(within(yours).getByRole('link', { name: 'Night Drive' })).toBeTruthy();
    expect(within(yours).queryByText('Band Demo')).toBeNull();
  });

  it('is hidden when nothing is shared', async () => {
    stubApi({ '/api/stats': stats, '/api/projects': [project()], '/api/projects/shared': [] });
    renderDashboard();
    expect(await screen.findByRole('region', { name: 'Your Projects' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Shared with you' })).toBeNull();
  });

  it('shows shared projects even without projects of your own', async () => {
    stubApi({
      '/api/stats': stats,
      '/api/projects': [],
      '/api/projects/shared': [sharedProject()],
    });
    renderDashboard();
    expect(await screen.findByRole('region', { name: 'Shared with you' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'No projects yet' })).toBeTruthy();
  });
});

describe('DashboardPage: the Activity card', () => {
  it("counts the events of the last month ('+N in the last month')", async () => {
    stubApi({
      '/api/stats': { ...stats, versions_last_month: 2, activity_last_month: 17 },
      '/api/projects': [project()],
      '/api/projects/shared': [],
    });
    renderDashboard();
    const card = (await screen.findByRole('heading', { name: 'Activity' })).parentElement!;
    expect(await within(card).findByText('+17 in the last month')).toBeTruthy();
    expect(within(card).getByText('+17')).toBeTruthy();
  });

  it('reads the versions of the last month from a server that does not count events yet', async () => {
    stubApi({
      '/api/stats': { ...stats, versions_last_month: 3 },
      '/api/projects': [project()],
      '/api/projects/shared': [],
    });
    renderDashboard();
    const card = (await screen.findByRole('heading', { name: 'Activity' })).parentElement!;
    expect(await within(card).findByText('+3 in the last month')).toBeTruthy();
  });
});

describe("DashboardPage: 'Your Projects' a page at a time", () => {
  it("asks for 50, then 'Load more' continues after the last one and disappears at the end", async () => {
    const first = Array.from({ length: 50 }, (_, i) => project({ id: `p${i}`, name: `Song ${i}` }));
    const fetchMock = stubApi({
      '/api/stats': stats,
      '/api/projects/shared': [],
      '/api/projects': (url: URL) =>
        url.searchParams.get('after') === 'p49' ? [project({ id: 'p50', name: 'Song 50' })] : first,
    });
    renderDashboard();
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('Song 49')).toBeTruthy();
    const asked = () =>
      fetchMock.mock.calls
        .map(([input]) => new URL(input, 'http://localhost'))
        .filter((url) => url.pathname === '/api/projects')
        .map((url) => url.search);
    expect(asked()).toEqual(['?limit=50']);
    screen.getByRole('button', { name: 'Load more' }).click();
    expect(await within(table).findByText('Song 50')).toBeTruthy();
    expect(asked()).toEqual(['?limit=50', '?limit=50&after=p49']);
    // A short page is the last: no more 'Load more'.
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });
});

describe('DashboardPage: room for what is loading', () => {
  it('holds the stat lines and the project list with placeholders until they arrive', async () => {
    let answerStats: ((response: Response) => void) | null = null;
    let answerProjects: ((response: Response) => void) | null = null;
    stubApi({
      '/api/stats': () => new Promise<Response>((resolve) => (answerStats = resolve)),
      '/api/projects': () => new Promise<Response>((resolve) => (answerProjects = resolve)),
      '/api/projects/shared': [],
    });
    renderDashboard();

    const statistics = screen.getByRole('region', { name: 'Statistics' });
    // The Tracks and Activity cards keep their second line's place.
    expect(within(statistics).getAllByTestId('stat-placeholder')).toHaveLength(2);
    expect(screen.getByRole('status').textContent).toBe('Loading projects');
    const skeleton = screen.getByTestId('projects-skeleton');
    // Three recent cards and the table's rows, hidden from assistive technology.
    expect(skeleton.querySelectorAll('li')).toHaveLength(3);
    expect(skeleton.querySelectorAll('[aria-hidden="true"] li')).toHaveLength(3);

    await waitFor(() => expect(answerStats && answerProjects).toBeTruthy());
    answerStats!(new Response(JSON.stringify({ ...stats, last_update: null })));
    answerProjects!(new Response(JSON.stringify([project()])));
    expect(await screen.findByText('Last update: Never')).toBeTruthy();
    expect(await screen.findByRole('region', { name: 'Your Projects' })).toBeTruthy();
    expect(within(statistics).queryAllByTestId('stat-placeholder')).toHaveLength(0);
    expect(screen.queryByTestId('projects-skeleton')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
