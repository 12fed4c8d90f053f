import type { Role } from '@takes/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthContextValue } from '../auth/auth-context';
import { fakePlayer } from '../player/test-support';
import type { AudioPlayerApi } from '../player/use-audio-player';
import { Landed, renderAt, signedIn, signedOut, stubApi } from '../repos/test-support';
import { PUBLIC_MEANING } from './public-meaning';
import { ProjectPage } from './project-page';
import { branch, project, publicProject } from './test-support';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.head.querySelectorAll('meta[name="robots"]').forEach((meta) => meta.remove());
});

function renderProject({
  auth = signedIn,
  player = fakePlayer(),
}: { auth?: AuthContextValue; player?: AudioPlayerApi } = {}) {
  renderAt(<ProjectPage />, {
    pattern: '/projects/:projectId',
    url: '/projects/p1',
    auth,
    player,
    routes: [{ path: '/login', element: <Landed name="Sign-in page" /> }],
  });
}

function stubProject(role: Role, overrides: Parameters<typeof project>[0] = {}, extra = {}) {
  return stubApi({
    '/api/projects/p1': project({ role, ...overrides }),
    '/api/projects/p1/branches': [branch()],
    ...extra,
  });
}

function allRequests(fetchMock: ReturnType<typeof stubApi>) {
  return fetchMock.mock.calls.map(([url, init]) => ({
    method: init?.method ?? 'GET',
    path: new URL(url, 'http://localhost').pathname,
    body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
  }));
}

/** The project's own requests (opening the page also marks its notifications read). */
function requests(fetchMock: ReturnType<typeof stubApi>) {
  return allRequests(fetchMock).filter((r) => r.path !== '/api/notifications/read');
}

/**
 * The page as a member sees it: its heading, then the versions (rendered just after the page's
 * first paint, see useAfterFirstRender).
 */
async function pageShown() {
  const heading = await screen.findByRole('heading', { name: 'Night Drive', level: 1 });
  await screen.findAllByRole('button', { name: 'Play version 1' });
  return heading;
}

/** The first button named so (a version's Play shows on its card and its row), or null. */
const button = (name: string | RegExp) => screen.queryAllByRole('button', { name })[0] ?? null;

describe('ProjectPage: what each role sees', () => {
  it('the owner sees every button', async () => {
    stubProject('owner');
    renderProject();
    const heading = await pageShown();
    const badges = heading.parentElement!;
    expect(within(badges).getByText('Owner')).toBeTruthy();
    expect(within(badges).getByText('Private')).toBeTruthy();
    for (const name of ['Members', 'Make public', 'Share', 'Edit', 'Delete', 'New Branch']) {
      expect(button(name), name).toBeTruthy();
    }
    expect(button('Upload Version')).toBeTruthy();
    expect(button('Upload new version to main')).toBeTruthy();
    expect(button('Rename main')).toBeTruthy();
    expect(button('Share version 1')).toBeTruthy();
  });

  it('an Editor uploads, manages branches and shares, but cannot rename, delete or change privacy', async () => {
    stubProject('editor');
    renderProject();
    const heading = await pageShown();
    expect(within(heading.parentElement!).getByText('Editor')).toBeTruthy();
    for (const name of [
      'Members',
      'Share',
      'New Branch',
      'Upload Version',
      'Upload new version to main',
      'Rename main',
      'Share version 1',
    ]) {
      expect(button(name), name).toBeTruthy();
    }
    for (const name of ['Make public', 'Edit', 'Delete']) expect(button(name), name).toBeNull();
  });

  it.each(['commenter', 'viewer'] as const)(
    'a %s listens and downloads: no upload, no branch changes, no share links',
    async (role) => {
      stubProject(role);
      renderProject();
      const heading = await pageShown();
      const label = role === 'commenter' ? 'Commenter' : 'Viewer';
      expect(within(heading.parentElement!).getByText(label)).toBeTruthy();
      expect(button('Members')).toBeTruthy();
      expect(button('Play version 1')).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Download version 1' })).toBeTruthy();
      for (const name of [
        'Make public',
        'Share',
        'Edit',
        'Delete',
        'New Branch',
        'Upload Version',
        'Upload new version to main',
        'Rename main',
        'Share version 1',
      ]) {
        expect(button(name), name).toBeNull();
      }
    },
  );

  it("'Members' opens the 'Project members' dialog", async () => {
    stubProject(
      'viewer',
      {},
      {
        '/api/projects/p1/members': { role: 'viewer', members: [], invitations: [] },
      },
    );
    renderProject();
    fireEvent.click(await screen.findByRole('button', { name: 'Members' }));
    expect(await screen.findByRole('dialog', { name: 'Project members' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Leave project' })).toBeTruthy();
  });
});

describe("ProjectPage: 'Make public'", () => {
  it('says what Public means and, with the box ticked, lists the page in search engines', async () => {
    const fetchMock = stubApi({
      '/api/projects/p1': (_url: URL, init: RequestInit | undefined) =>
        init?.method === 'PATCH' ? project({ is_private: false, listed: true }) : project(),
      '/api/projects/p1/branches': [branch()],
      '/api/projects/p1/toggle-privacy': project({ is_private: false }),
    });
    renderProject();
    fireEvent.click(await screen.findByRole('button', { name: 'Make public' }));
    const dialog = await screen.findByRole('dialog', { name: 'Make this project public?' });
    expect(dialog.textContent).toContain(PUBLIC_MEANING);
    expect(PUBLIC_MEANING).toContain('without signing in');
    expect(PUBLIC_MEANING).toContain('standard quality');
    expect(PUBLIC_MEANING).toContain('cannot download, comment, or see share links');
    const listed = within(dialog).getByRole('checkbox', { name: 'List in search engines' });
    expect((listed as HTMLInputElement).checked).toBe(false);
    fireEvent.click(listed);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make public' }));

    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Make this project public?' })).toBeNull(),
    );
    const writes = requests(fetchMock).filter((r) => r.method !== 'GET');
    expect(writes).toEqual([
      { method: 'POST', path: '/api/projects/p1/toggle-privacy', body: {} },
      { method: 'PATCH', path: '/api/projects/p1', body: { listed: true } },
    ]);
  });

  it('unticked, only switches the project to Public (its page stays noindex)', async () => {
    const fetchMock = stubProject(
      'owner',
      {},
      {
        '/api/projects/p1/toggle-privacy': project({ is_private: false }),
      },
    );
    renderProject();
    fireEvent.click(await screen.findByRole('button', { name: 'Make public' }));
    const dialog = await screen.findByRole('dialog', { name: 'Make this project public?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make public' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Make this project public?' })).toBeNull(),
    );
    expect(requests(fetchMock).filter((r) => r.method !== 'GET')).toEqual([
      { method: 'POST', path: '/api/projects/p1/toggle-privacy', body: {} },
    ]);
  });

  it("'Make private' takes effect at once", async () => {
    const fetchMock = stubProject(
      'owner',
      { is_private: false },
      {
        '/api/projects/p1/toggle-privacy': project({ is_private: true }),
      },
    );
    renderProject();
    fireEvent.click(await screen.findByRole('button', { name: 'Make private' }));
    await waitFor(() =>
      expect(requests(fetchMock).filter((r) => r.method !== 'GET')).toEqual([
        { method: 'POST', path: '/api/projects/p1/toggle-privacy', body: {} },
      ]),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows a Public project’s listing state; the owner changes it', async () => {
    const fetchMock = stubApi({
      '/api/projects/p1': (_url: URL, init: RequestInit | undefined) =>
        init?.method === 'PATCH'
          ? project({ is_private: false, listed: true })
          : project({ is_private: false }),
      '/api/projects/p1/branches': [branch()],
    });
    renderProject();
    const box = await screen.findByRole('checkbox', { name: 'List in search engines' });
    expect(screen.getByText('The public page is not listed in search engines.')).toBeTruthy();
    fireEvent.click(box);
    await waitFor(() =>
      expect(requests(fetchMock).filter((r) => r.method === 'PATCH')).toEqual([
        { method: 'PATCH', path: '/api/projects/p1', body: { listed: true } },
      ]),
    );
  });

  it('an Editor sees the listing state without a way to change it', async () => {
    stubProject('editor', { is_private: false, listed: true });
    renderProject();
    expect(await screen.findByText('The public page is listed in search engines.')).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'List in search engines' })).toBeNull();
  });
});

describe('ProjectPage: Public projects', () => {
  it('shows a signed-out visitor the read-only page of a Public project, marked noindex', async () => {
    const fetchMock = stubApi({ '/api/public/projects/p1': publicProject() });
    const player = fakePlayer();
    renderProject({ auth: signedOut, player });

    expect(await pageShown()).toBeTruthy();
    expect(screen.getByText('Synth-pop single')).toBeTruthy();
    expect(screen.getByText(/By Olive Owner/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'main' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'acoustic' })).toBeTruthy();
    expect(document.title).toBe('Night Drive · Takes');
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe(
      'noindex',
    );
    // Read-only: no download, no comments, no links, no buttons that change anything.
    expect(screen.queryByRole('link', { name: /Download/ })).toBeNull();
    expect(screen.queryByText(/Comments/)).toBeNull();
    expect(screen.queryAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
      'Play version 1',
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Play version 1' }));
    expect(player.playTrack).toHaveBeenCalledWith(
      expect.objectContaining({
        audioUrl: '/api/public/versions/v1/audio',
        title: 'First mix',
        shareable: false,
      }),
    );
    const track = vi.mocked(player.playTrack).mock.calls[0]![0];
    expect(track.versionId).toBeUndefined();
    expect(requests(fetchMock).map((r) => r.path)).toEqual(['/api/public/projects/p1']);
  });

  it('drops noindex when the owner listed the page', async () => {
    stubApi({ '/api/public/projects/p1': publicProject({ listed: true }) });
    renderProject({ auth: signedOut });
    expect(await pageShown()).toBeTruthy();
    expect(document.head.querySelector('meta[name="robots"]')).toBeNull();
  });

  it('sends a signed-out visitor to sign-in when the project is not Public, remembering the address', async () => {
    stubApi({});
    renderProject({ auth: signedOut });
    expect(await screen.findByText('Sign-in page')).toBeTruthy();
    expect(screen.getByTestId('landed-from').textContent).toBe('/projects/p1');
  });

  it('shows a signed-in non-member the public page of a Public project', async () => {
    stubApi({ '/api/public/projects/p1': publicProject() });
    renderProject();
    expect(await pageShown()).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Play version 1' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Members' })).toBeNull();
  });

  it("says 'Project not found' to a signed-in non-member of a private project", async () => {
    stubApi({});
    renderProject();
    expect(await screen.findByRole('heading', { name: 'Project not found' })).toBeTruthy();
  });
});

describe('ProjectPage: first paint', () => {
  it('commits the heading and branches before it renders the versions', async () => {
    stubProject('owner');
    // What the page held at each commit that changed it (a MutationObserver runs after each).
    const seen: { heading: boolean; versions: boolean; branches: boolean }[] = [];
    const observer = new MutationObserver(() =>
      seen.push({
        heading: screen.queryByRole('heading', { name: 'Night Drive', level: 1 }) !== null,
        branches: screen.queryByRole('button', { name: 'Rename main' }) !== null,
        versions: screen.queryAllByRole('button', { name: 'Play version 1' }).length > 0,
      }),
    );
    observer.observe(document.body, { childList: true, subtree: true });
    renderProject();
    await pageShown();
    observer.disconnect();
    const first = seen.find((state) => state.heading);
    expect(first).toEqual({ heading: true, branches: true, versions: false });
    expect(seen.at(-1)).toEqual({ heading: true, branches: true, versions: true });
  });
});

describe('ProjectPage: notifications', () => {
  it('reading the project marks its notifications read, once', async () => {
    const fetchMock = stubProject(
      'editor',
      {},
      {
        '/api/notifications/read': () => Promise.resolve(new Response(null, { status: 204 })),
      },
    );
    renderProject();
    await pageShown();
    await waitFor(() =>
      expect(allRequests(fetchMock).filter((r) => r.path === '/api/notifications/read')).toEqual([
        { method: 'POST', path: '/api/notifications/read', body: { href: '/projects/p1' } },
      ]),
    );
  });
});
