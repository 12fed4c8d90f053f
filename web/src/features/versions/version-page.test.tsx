import type { Role } from '@takes/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakePlayer } from '../player/test-support';
import { renderAt, stubApi } from '../repos/test-support';
import { branch, comment, project, version } from '../projects/test-support';
import { VersionPage } from './version-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The caller (u1) wrote c1; someone else wrote c2. */
function renderVersion(role: Role) {
  const { branches: _branches, ...projectRow } = project({ role });
  stubApi({
    // Wrapped: the version's own `status` field would read as the answer's HTTP status.
    '/api/versions/v1': { status: 200, body: { ...version(), project: projectRow } },
    '/api/versions/v1/comments': [
      comment({ id: 'c1', user_id: 'u1', author: 'Me', content: 'Mine' }),
      comment({ id: 'c2', user_id: 'u2', author: 'Eddie', content: 'Theirs' }),
    ],
  });
  renderAt(<VersionPage />, {
    pattern: '/projects/:projectId/branches/:branchId/versions/:versionId',
    url: '/projects/p1/branches/b1/versions/v1',
  });
}

async function commentActions(author: string): Promise<string[]> {
  const article = await screen.findByRole('article', { name: `Comment by ${author}` });
  return within(article)
    .queryAllByRole('button')
    .map((button) => button.textContent ?? '')
    .filter((text) => ['Reply', 'Resolve', 'Delete'].includes(text));
}

const topButton = (name: string) =>
  screen.queryAllByRole('button', { name }).filter((b) => !b.closest('article'));

describe('VersionPage: what each role sees', () => {
  it('a Viewer listens and downloads: no comment form, no Delete, no Share', async () => {
    renderVersion('viewer');
    expect(await screen.findByRole('heading', { name: 'Version 1' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
    expect(await screen.findByText('Theirs')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Comment' })).toBeNull();
    expect(screen.queryByPlaceholderText('Add a comment…')).toBeNull();
    expect(topButton('Delete')).toEqual([]);
    expect(topButton('Share')).toEqual([]);
    expect(await commentActions('Me')).toEqual([]);
    expect(await commentActions('Eddie')).toEqual([]);
  });

  it('a Commenter comments, and resolves or deletes only their own comments; no Share', async () => {
    renderVersion('commenter');
    expect(await screen.findByRole('form', { name: 'Comment' })).toBeTruthy();
    expect(topButton('Delete')).toEqual([]);
    expect(topButton('Share')).toEqual([]);
    expect(await commentActions('Me')).toEqual(['Reply', 'Resolve', 'Delete']);
    expect(await commentActions('Eddie')).toEqual(['Reply']);
  });

  it('an Editor deletes the version, shares it and moderates every comment', async () => {
    renderVersion('editor');
    expect(await screen.findByRole('form', { name: 'Comment' })).toBeTruthy();
    expect(topButton('Delete')).toHaveLength(1);
    expect(topButton('Share')).toHaveLength(1);
    expect(await commentActions('Me')).toEqual(['Reply', 'Resolve', 'Delete']);
    expect(await commentActions('Eddie')).toEqual(['Reply', 'Resolve', 'Delete']);
  });

  it('the owner sees everything too', async () => {
    renderVersion('owner');
    expect(await screen.findByRole('form', { name: 'Comment' })).toBeTruthy();
    expect(topButton('Delete')).toHaveLength(1);
    expect(topButton('Share')).toHaveLength(1);
    expect(await commentActions('Eddie')).toEqual(['Reply', 'Resolve', 'Delete']);
  });
});

describe('VersionPage: arriving from a notification or an activity line', () => {
  function renderAtUrl(url: string, markRead: (init: RequestInit | undefined) => Response) {
    const { branches: _branches, ...projectRow } = project({ role: 'owner' });
    const fetchMock = stubApi({
      '/api/versions/v1': { status: 200, body: { ...version(), project: projectRow } },
      '/api/versions/v1/comments': [],
      '/api/notifications/read': (_url: URL, init: RequestInit | undefined) =>
        Promise.resolve(markRead(init)),
    });
    const player = fakePlayer();
    renderAt(<VersionPage />, {
      pattern: '/projects/:projectId/branches/:branchId/versions/:versionId',
      url,
      player,
    });
    const markReadBodies = () =>
      fetchMock.mock.calls
        .filter(([input]) => new URL(input, 'http://localhost').pathname.endsWith('/read'))
        .map(([, init]) => JSON.parse(init?.body as string) as unknown);
    return { player, markReadBodies };
  }

  it('?t= starts the version there once it is loaded, and marks its notifications read once', async () => {
    const { player, markReadBodies } = renderAtUrl(
      '/projects/p1/branches/b1/versions/v1?t=83',
      () => new Response(null, { status: 204 }),
    );
    expect(await screen.findByRole('heading', { name: 'Version 1' })).toBeTruthy();
    await waitFor(() => expect(player.playTrack).toHaveBeenCalledTimes(1), { timeout: 2000 });
    const [started, options] = vi.mocked(player.playTrack).mock.calls[0]!;
    expect(started).toMatchObject({ versionId: 'v1' });
    expect(options).toEqual({ startAt: 83 });
    expect(markReadBodies()).toEqual([{ href: '/projects/p1/branches/b1/versions/v1' }]);
  });

  it('without ?t= it plays from the start; a failed mark-read changes nothing on the page', async () => {
    const { player, markReadBodies } = renderAtUrl(
      '/projects/p1/branches/b1/versions/v1',
      () => new Response(JSON.stringify({ error: 'Server error' }), { status: 500 }),
    );
    expect(await screen.findByRole('heading', { name: 'Version 1' })).toBeTruthy();
    await waitFor(() => expect(player.playTrack).toHaveBeenCalledTimes(1), { timeout: 2000 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(player.seek).not.toHaveBeenCalled();
    expect(markReadBodies()).toEqual([{ href: '/projects/p1/branches/b1/versions/v1' }]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("'Add to collection' offers this version or the latest of its branch, named", async () => {
    const { branches: _branches, ...projectRow } = project({ role: 'viewer' });
    stubApi({
      '/api/versions/v1': { status: 200, body: { ...version(), project: projectRow } },
      '/api/versions/v1/comments': [],
      '/api/projects/p1/branches': [branch({ id: 'b1', name: 'mixes' })],
      '/api/collections': { collections: [] },
    });
    renderAt(<VersionPage />, {
      pattern: '/projects/:projectId/branches/:branchId/versions/:versionId',
      url: '/projects/p1/branches/b1/versions/v1',
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add to collection' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      await within(dialog).findByText('Follow the latest of this branch (mixes)'),
    ).toBeTruthy();
  });
});
