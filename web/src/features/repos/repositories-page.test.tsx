import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RepositoriesPage } from './repositories-page';
import { renderAt, repository, stubApi } from './test-support';

// wavesurfer.js draws on a canvas jsdom does not have.
vi.mock('../bounces/waveform-canvas', () => ({
  WaveformCanvas: () => <div data-testid="waveform-canvas" />,
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  return renderAt(<RepositoriesPage />, { pattern: '/repositories', url: '/repositories' });
}

describe('RepositoriesPage', () => {
  it('lists repositories with last activity, patches and bounces, and searches by name', async () => {
    stubApi({
      '/api/audio-git/repositories': {
        data: [
          repository({ id: 'r1', name: 'Night Drive', patch_count: 7, bounce_count: 3 }),
          repository({ id: 'r2', name: 'Daybreak', patch_count: 1, bounce_count: 0 }),
        ],
      },
    });
    renderPage();
    const link = await screen.findByRole('link', { name: 'Night Drive' });
    expect(link.getAttribute('href')).toBe('/repositories/r1');
    const row = link.closest('tr');
    if (!row) throw new Error('no row');
    expect(within(row).getByText('5 minutes ago')).toBeTruthy();
    expect(within(row).getByText('7')).toBeTruthy();
    expect(within(row).getByText('3')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Last activity' })).toBeTruthy();
    expect(document.title).toBe('Repositories · Takes');

    const search = screen.getByRole('searchbox', { name: 'Search repositories' });
    fireEvent.change(search, { target: { value: 'DAY' } });
    expect(screen.queryByRole('link', { name: 'Night Drive' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Daybreak' })).toBeTruthy();

    fireEvent.change(search, { target: { value: 'nothing like it' } });
    expect(screen.getByText('No matches for your search.')).toBeTruthy();
  });

  it("shows 'No repositories yet.' for a new account and the server's error otherwise", async () => {
    stubApi({ '/api/audio-git/repositories': { data: [] } });
    renderPage();
    expect(await screen.findByText('No repositories yet.')).toBeTruthy();
    cleanup();

    stubApi({ '/api/audio-git/repositories': { status: 500, body: {} } });
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load');
  });

  it('creates a repository and opens it', async () => {
    const fetchMock = stubApi({
      '/api/audio-git/repositories': { data: [] },
      '/api/repos': { status: 201, body: { repo: repository({ id: 'new1', name: 'Fresh' }) } },
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'New repository' }));
    const dialog = screen.getByRole('dialog', { name: 'New repository' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create repository' }));
    expect(within(dialog).getByText('Repository name is required')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Repository name' }), {
      target: { value: '  Fresh ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create repository' }));
    expect(await screen.findByText('Elsewhere')).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(post?.[1]?.body as string)).toEqual({ name: 'Fresh' });
  });

  it('marks repositories shared with you with your role there', async () => {
    stubApi({
      '/api/audio-git/repositories': {
        data: [
          repository({ id: 'r1', name: 'Night Drive' }),
          repository({ id: 'r2', name: 'Band Stems', role: 'commenter' }),
        ],
      },
    });
    renderPage();
    const own = (await screen.findByRole('link', { name: 'Night Drive' })).closest('tr')!;
    const shared = screen.getByRole('link', { name: 'Band Stems' }).closest('tr')!;
    expect(within(shared).getByText('Commenter')).toBeTruthy();
    expect(within(own).queryByText('Owner')).toBeNull();
  });
});
