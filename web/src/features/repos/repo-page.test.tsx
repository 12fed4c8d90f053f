import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RepoPage } from './repo-page';
import { fakePlayer } from '../player/test-support';
import { bounce, renderAt, repository, stubApi } from './test-support';

// wavesurfer.js draws on a canvas jsdom does not have.
vi.mock('../bounces/waveform-canvas', () => ({
  WaveformCanvas: () => <div data-testid="waveform-canvas" />,
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const sha1 = '1234567890abcdef'.repeat(2) + '12345678';
const sha2 = 'fedcba0987654321'.repeat(2) + '87654321';

function renderRepo(player = fakePlayer()) {
  return renderAt(<RepoPage />, {
    pattern: '/repositories/:repoId',
    url: '/repositories/r1',
    player,
  });
}

const branchRow = {
  name: 'main',
  is_default: true,
  head_sha: sha1,
  commit_count: 2,
  bounce_count: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

function stubRepoWithCommits() {
  return stubApi({
    '/api/repos/r1': { repo: repository() },
    '/api/repos/r1/branches': {
      branches: [branchRow, { ...branchRow, name: 'alt/mix', is_default: false }],
    },
    '/api/repos/r1/commits': {
      commits: [
        {
          sha: sha1,
          message: 'Louder drums',
          parent_sha: sha2,
          branch: 'main',
          created_at: '2026-01-02T00:00:00.000Z',
          has_bounce: true,
        },
        {
          sha: sha2,
          message: null,
          parent_sha: null,
          branch: 'main',
          created_at: '2026-01-01T00:00:00.000Z',
          has_bounce: false,
        },
      ],
    },
    '/api/repos/r1/bounces': { bounces: [bounce({ commit_sha: sha1 })] },
    '/api/repos/r1/activity': { items: [], next_cursor: null },
  });
}

describe('RepoPage', () => {
  it('shows the branch, its commit history and activity, and previews the first bounce', async () => {
    const fetchMock = stubRepoWithCommits();
    renderRepo();
    expect(await screen.findByRole('heading', { name: 'Commit History (2)' })).toBeTruthy();
    expect(document.title).toBe('Night Drive · Takes');

    const timeline = screen.getByRole('list', { name: 'Timeline' });
    const first = within(timeline).getByRole('link', { name: /Louder drums/ });
    expect(first.getAttribute('href')).toBe(`/repositories/r1/commit/${sha1}`);
    expect(within(first).getByText(sha1.slice(0, 12))).toBeTruthy();
    expect(within(first).getByText('has bounce')).toBeTruthy();
    const second = within(timeline).getByRole('link', { name: /\(no message\)/ });
    expect(within(second).queryByText('has bounce')).toBeNull();

    const branches = screen.getByRole('list', { name: 'Branch list' });
    expect(
      within(branches).getByRole('button', { name: /main/ }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(
      within(branches).getByRole('link', { name: 'Open branch alt/mix' }).getAttribute('href'),
    ).toBe('/repositories/r1/branch/alt%2Fmix');

    const info = screen.getByRole('region', { name: 'Repository info' });
    expect(info.textContent).toContain('r1');
    expect(info.textContent).toContain('main');

    const preview = screen.getByRole('region', { name: 'Now previewing' });
    expect(within(preview).getByRole('heading', { name: 'Rough mix' })).toBeTruthy();
    expect(within(preview).getByRole('slider', { name: 'Seek Rough mix' })).toBeTruthy();

    const pull = screen.getByRole('button', { name: 'Pull' });
    expect(pull.getAttribute('title')).toBe('Open in desktop and pull');

    const commitsCall = fetchMock.mock.calls.find(([url]) => url.includes('/commits'));
    expect(commitsCall?.[0]).toContain('branch=main');
  });

  it('reading the repository marks its notifications read, once', async () => {
    const fetchMock = stubRepoWithCommits();
    renderRepo();
    expect(await screen.findByRole('heading', { name: 'Commit History (2)' })).toBeTruthy();
    await waitFor(() => {
      const marks = fetchMock.mock.calls.filter(([url]) => url.includes('/api/notifications/read'));
      expect(marks.map(([, init]) => JSON.parse(init?.body as string) as unknown)).toEqual([
        { href: '/repositories/r1' },
      ]);
    });
  });

  it('plays a bounce in the global player, and pauses the one that is playing', async () => {
    stubRepoWithCommits();
    const player = fakePlayer();
    renderRepo(player);
    const activity = await screen.findByRole('list', { name: 'Branch activity' });
    fireEvent.click(within(activity).getByRole('button', { name: 'Play Rough mix' }));
    expect(player.playTrack).toHaveBeenCalledWith({
      id: 'b1',
      title: 'Rough mix',
      artist: 'Night Drive',
      audioUrl: '/api/repos/r1/bounces/b1/stream',
      sourceUrl: '/repositories/r1',
      peaks: [0.5, 0.9],
      duration: 12.6,
    });
    cleanup();

    const playing = fakePlayer(
      { id: 'b1', title: 'Rough mix', audioUrl: '/api/repos/r1/bounces/b1/stream' },
      { isPlaying: true },
    );
    renderRepo(playing);
    const list = await screen.findByRole('list', { name: 'Branch activity' });
    fireEvent.click(within(list).getByRole('button', { name: 'Pause Rough mix' }));
    expect(playing.pause).toHaveBeenCalled();
    expect(playing.playTrack).not.toHaveBeenCalled();
  });

  it('falls back to the file name, then Bounce, for a title', async () => {
    stubApi({
      '/api/repos/r1': { repo: repository() },
      '/api/repos/r1/branches': { branches: [branchRow] },
      '/api/repos/r1/commits': { commits: [] },
      '/api/repos/r1/bounces': {
        bounces: [bounce({ id: 'b1', title: '' }), bounce({ id: 'b2', title: '', filename: '' })],
      },
    });
    renderRepo();
    const activity = await screen.findByRole('list', { name: 'Branch activity' });
    expect(within(activity).getByRole('button', { name: 'Play rough-mix.wav' })).toBeTruthy();
    expect(within(activity).getByRole('button', { name: 'Play Bounce' })).toBeTruthy();
    expect(screen.getByText('No commits yet.')).toBeTruthy();
  });

  it('shows the pseudo-branch main over legacy patches when there are no branches', async () => {
    stubApi({
      '/api/repos/r1': { repo: repository() },
      '/api/repos/r1/branches': { branches: [] },
      '/api/audio-git/repositories/r1/patches': {
        data: [{ patch_hash: sha2, message: 'Legacy patch', timestamp: '2026-01-01T00:00:00Z' }],
        total: 1,
      },
      '/api/repos/r1/bounces': { bounces: [] },
    });
    renderRepo();
    expect(await screen.findByRole('heading', { name: 'Commit History (1)' })).toBeTruthy();
    expect(screen.getByText('Legacy patch')).toBeTruthy();
    expect(screen.getByText(sha2.slice(0, 12))).toBeTruthy();
    const branches = screen.getByRole('list', { name: 'Branch list' });
    expect(within(branches).getByRole('button', { name: /main/ })).toBeTruthy();
    expect(within(branches).queryByRole('link')).toBeNull();
    expect(screen.getByText('No activity for this branch yet.')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Now previewing' })).toBeNull();
  });

  it('shows an error line when commits fail, and the message when the repository is missing', async () => {
    stubApi({
      '/api/repos/r1': { repo: repository() },
      '/api/repos/r1/branches': { branches: [branchRow] },
      '/api/repos/r1/commits': { status: 500, body: {} },
      '/api/repos/r1/bounces': { bounces: [] },
      '/api/repos/r1/activity': { items: [], next_cursor: null },
      '/api/repos/r1/guest-files': { files: [], next_version_number: null },
    });
    renderRepo();
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load commits');
    cleanup();

    stubApi({ '/api/repos/r1': { status: 404, body: { error: 'Repository not found' } } });
    renderRepo();
    expect((await screen.findByRole('alert')).textContent).toContain('Repository not found');
  });

  it("shows the caller's role; a Viewer neither publishes nor changes the cover", async () => {
    stubApi({
      '/api/repos/r1': { repo: repository({ role: 'viewer' }) },
      '/api/repos/r1/branches': { branches: [branchRow] },
      '/api/repos/r1/commits': { commits: [] },
      '/api/repos/r1/bounces': { bounces: [] },
      '/api/repos/r1/members': { role: 'viewer', members: [], invitations: [] },
    });
    renderRepo();
    const heading = await screen.findByRole('heading', { name: 'Night Drive', level: 1 });
    expect(within(heading.parentElement!).getByText('Viewer')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Publish bounce' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Change cover' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Pull' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Members' }));
    expect(await screen.findByRole('dialog', { name: 'Repository members' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Leave repository' })).toBeTruthy();
  });

  it('an Editor publishes and changes the cover', async () => {
    stubApi({
      '/api/repos/r1': { repo: repository({ role: 'editor' }) },
      '/api/repos/r1/branches': { branches: [branchRow] },
      '/api/repos/r1/commits': { commits: [] },
      '/api/repos/r1/bounces': { bounces: [] },
    });
    renderRepo();
    const heading = await screen.findByRole('heading', { name: 'Night Drive', level: 1 });
    expect(within(heading.parentElement!).getByText('Editor')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Publish bounce' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Change cover' })).toBeTruthy();
  });

  it("lists the branch's files from guests; an Editor adds one as a bounce with a title", async () => {
    const accepted: unknown[] = [];
    const file = {
      id: 'g1',
      project_id: null,
      repo_id: 'r1',
      branch_id: 'rb1',
      guest_name: 'Mo',
      guest_email: 'mo@example.test',
      link_name: 'Masters',
      sent_by: 'Sent by Mo via Masters',
      file_name: 'Final Master.wav',
      size: 1000,
      status: 'completed',
      error: null,
      duration: 3,
      peaks: null,
      stream_url: '/api/guest-files/g1/stream',
      created_at: '2026-01-03T00:00:00.000Z',
    };
    const fetchMock = stubApi({
      '/api/repos/r1': { repo: repository({ role: 'editor' }) },
      '/api/repos/r1/branches': { branches: [branchRow] },
      '/api/repos/r1/commits': { commits: [] },
      '/api/repos/r1/bounces': { bounces: [] },
      '/api/repos/r1/guest-files': { files: [file], next_version_number: null },
      '/api/guest-files/g1/accept': (_url: URL, init?: RequestInit) => {
        accepted.push(JSON.parse(init?.body as string) as unknown);
        return {
          status: 201,
          body: { bounce_id: 'g1', repo_id: 'r1', branch: 'main', title: 'x' },
        };
      },
    });
    renderRepo();
    const section = await screen.findByRole('region', { name: /Sent by guests/ });
    expect(await within(section).findByText('Final Master.wav')).toBeTruthy();
    expect(within(section).getByRole('button', { name: 'Upload link' })).toBeTruthy();
    const listed = fetchMock.mock.calls.map(([input]) => String(input));
    expect(listed.some((url) => url.includes('/api/repos/r1/guest-files?branch=main'))).toBe(true);

    fireEvent.click(within(section).getByRole('button', { name: 'Add as bounce' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add as bounce' });
    const title = within(dialog).getByLabelText<HTMLInputElement>('Bounce Title');
    expect(title.value).toBe('Final Master');
    fireEvent.change(title, { target: { value: 'The master' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add as bounce' }));
    await waitFor(() => expect(accepted).toEqual([{ title: 'The master' }]));
  });
});
