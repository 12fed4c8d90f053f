import type { InvitationView } from '@takes/contract';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import type { AuthContextValue } from '../auth/auth-context';
import { Landed, renderAt, signedIn, signedOut, stubApi } from '../repos/test-support';
import { InvitePage } from './invite-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.head.querySelectorAll('meta[name="robots"]').forEach((meta) => meta.remove());
});

const TOKEN = 'tok_0123456789abcdef0123456789';

function view(overrides: Partial<InvitationView> = {}): InvitationView {
  return {
    kind: 'project',
    target_id: 'p1',
    target_name: 'Night Drive',
    inviter_name: 'Olive Owner',
    email: 'me@example.com',
    role: 'commenter',
    expires_at: '2026-02-10T10:00:00.000Z',
    ...overrides,
  };
}

function renderInvite(auth: AuthContextValue = signedIn) {
  renderAt(<InvitePage />, {
    pattern: '/invite/:token',
    url: `/invite/${TOKEN}`,
    auth,
    routes: [
      { path: '/login', element: <Landed name="Sign-in page" /> },
      { path: '/projects/:projectId', element: <Landed name="Project page" /> },
      { path: '/repositories/:repoId', element: <Landed name="Repository page" /> },
      { path: '/collections/:id', element: <Landed name="Collection page" /> },
    ],
  });
}

/** The JSON bodies POSTed to `path`. */
function bodiesTo(fetchMock: ReturnType<typeof stubApi>, path: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([url, init]) => url === path && init?.method === 'POST')
    .map(([, init]) => JSON.parse(init?.body as string) as unknown);
}

describe('InvitePage', () => {
  it('shows what the invitation offers and, signed out, offers sign-in and sign-up that come back here', async () => {
    const fetchMock = stubApi({ '/api/invitations/view': view() });
    renderInvite(signedOut);

    expect(await screen.findByRole('heading', { name: 'Join Night Drive' })).toBeTruthy();
    expect(screen.getByText('Invited by').nextElementSibling?.textContent).toBe('Olive Owner');
    expect(screen.getByText('Role').nextElementSibling?.textContent).toBe('Commenter');
    expect(screen.getByText('Project').nextElementSibling?.textContent).toBe('Night Drive');
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).toBeNull();
    // The token goes in the body, not in the API's address.
    expect(bodiesTo(fetchMock, '/api/invitations/view')).toEqual([{ token: TOKEN }]);
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe(
      'noindex',
    );
    expect(await axeViolations()).toEqual([]);

    const signUp = screen.getByRole('link', { name: 'Sign up' });
    expect(signUp.getAttribute('href')).toBe('/login?mode=sign-up');
    fireEvent.click(screen.getByRole('link', { name: 'Sign in' }));
    expect(await screen.findByText('Sign-in page')).toBeTruthy();
    expect(screen.getByTestId('landed-from').textContent).toBe(`/invite/${TOKEN}`);
  });

  it('the Sign up link also remembers the invitation', async () => {
    stubApi({ '/api/invitations/view': view() });
    renderInvite(signedOut);
    fireEvent.click(await screen.findByRole('link', { name: 'Sign up' }));
    expect(await screen.findByText('Sign-in page')).toBeTruthy();
    expect(screen.getByTestId('landed-at').textContent).toBe('/login?mode=sign-up');
    expect(screen.getByTestId('landed-from').textContent).toBe(`/invite/${TOKEN}`);
  });

  it('accepts and lands on the project', async () => {
    const fetchMock = stubApi({
      '/api/invitations/view': view(),
      '/api/invitations/accept': { kind: 'project', target_id: 'p1', role: 'commenter' },
    });
    renderInvite();
    expect(await screen.findByText('me@example.com', { selector: 'strong' })).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText('Project page')).toBeTruthy();
    expect(screen.getByTestId('landed-at').textContent).toBe('/projects/p1');
    expect(bodiesTo(fetchMock, '/api/invitations/accept')).toEqual([{ token: TOKEN }]);
  });

  it('lands on the repository for a repository invitation', async () => {
    stubApi({
      '/api/invitations/view': view({ kind: 'repository', target_id: 'r1', role: 'editor' }),
      '/api/invitations/accept': { kind: 'repository', target_id: 'r1', role: 'editor' },
    });
    renderInvite();
    expect(await screen.findByText('Repository')).toBeTruthy();
    expect(screen.getByText('Role').nextElementSibling?.textContent).toBe('Editor');
    fireEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText('Repository page')).toBeTruthy();
    expect(screen.getByTestId('landed-at').textContent).toBe('/repositories/r1');
  });

  it('names a collection invitation as a collection and lands on the collection', async () => {
    const fetchMock = stubApi({
      '/api/invitations/view': view({
        kind: 'collection',
        target_id: 'c1',
        target_name: 'Road trip',
        role: 'editor',
      }),
      '/api/invitations/accept': { kind: 'collection', target_id: 'c1', role: 'editor' },
    });
    renderInvite();
    expect(await screen.findByRole('heading', { name: 'Join Road trip' })).toBeTruthy();
    expect(screen.getByText(/invited you to the collection/).textContent).toBe(
      'Olive Owner invited you to the collection Road trip on Takes as Editor.',
    );
    expect(screen.getByText('Collection').nextElementSibling?.textContent).toBe('Road trip');
    expect(screen.queryByText('Project')).toBeNull();
    expect(screen.queryByText('Repository')).toBeNull();
    expect(await axeViolations()).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText('Collection page')).toBeTruthy();
    expect(screen.getByTestId('landed-at').textContent).toBe('/collections/c1');
    expect(bodiesTo(fetchMock, '/api/invitations/accept')).toEqual([{ token: TOKEN }]);
  });

  it('says an expired, used or revoked invitation is no longer valid', async () => {
    stubApi({
      '/api/invitations/view': {
        status: 410,
        body: { error: 'This invitation is no longer valid.' },
      },
    });
    renderInvite(signedOut);
    expect(await screen.findByText('This invitation is no longer valid.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
  });

  it('says the same of a malformed link', async () => {
    stubApi({
      '/api/invitations/view': { status: 400, body: { error: 'Too small: expected string' } },
    });
    renderInvite();
    expect(await screen.findByText('This invitation is no longer valid.')).toBeTruthy();
  });

  it("shows the server's words when another account accepts, and offers to switch account", async () => {
    stubApi({
      '/api/invitations/view': view({ email: 'band@example.com' }),
      '/api/invitations/accept': {
        status: 403,
        body: { error: 'This invitation was sent to band@example.com.' },
      },
    });
    const signOut = vi.fn(() => Promise.resolve());
    renderInvite({ ...signedIn, signOut });
    fireEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText('This invitation was sent to band@example.com.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Sign in with another account' }));
    expect(await screen.findByText('Sign-in page')).toBeTruthy();
    expect(signOut).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('landed-from').textContent).toBe(`/invite/${TOKEN}`);
  });

  it('says an invitation that stopped being valid before Accept is no longer valid', async () => {
    stubApi({
      '/api/invitations/view': view(),
      '/api/invitations/accept': {
        status: 410,
        body: { error: 'This invitation is no longer valid.' },
      },
    });
    renderInvite();
    fireEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText('This invitation is no longer valid.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in with another account' })).toBeNull();
  });

  it("asks an account that never proved its address for the emailed code ('Confirm'), then accepts", async () => {
    let accepts = 0;
    const refusal = {
      status: 403,
      body: {
        error:
          'Confirm your email address to accept this invitation. We sent a 6-digit code to me@example.com.',
        code: 'email_unverified',
        details: { code: 'email_unverified', email: 'me@example.com' },
      },
    };
    const fetchMock = stubApi({
      '/api/invitations/view': view(),
      '/api/invitations/accept': () =>
        ++accepts === 1 ? refusal : { kind: 'project', target_id: 'p1', role: 'commenter' },
      '/api/auth/verify-email': (_url: URL, init: RequestInit | undefined) =>
        (JSON.parse(init?.body as string) as { code: string }).code === '123456'
          ? { ok: true }
          : { status: 400, body: { error: 'Invalid or expired OTP code' } },
    });
    renderInvite();
    fireEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }));

    expect(
      await screen.findByText(
        'Confirm your email address to accept this invitation. We sent a 6-digit code to me@example.com.',
      ),
    ).toBeTruthy();
    expect(screen.getByText(/Enter the 6-digit code we sent to/).textContent).toBe(
      'Enter the 6-digit code we sent to me@example.com.',
    );
    // Not a wrong account: nothing offers to switch.
    expect(screen.queryByRole('button', { name: 'Sign in with another account' })).toBeNull();
    expect(await axeViolations()).toEqual([]);

    const field = screen.getByLabelText('6-digit code');
    fireEvent.change(field, { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('OTP must be 6 digits')).toBeTruthy();
    expect(bodiesTo(fetchMock, '/api/auth/verify-email')).toEqual([]);

    fireEvent.change(field, { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Invalid or expired OTP code')).toBeTruthy();
    expect(screen.queryByText('Project page')).toBeNull();

    fireEvent.change(field, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Project page')).toBeTruthy();
    expect(bodiesTo(fetchMock, '/api/auth/verify-email')).toEqual([
      { code: '654321' },
      { code: '123456' },
    ]);
    expect(bodiesTo(fetchMock, '/api/invitations/accept')).toEqual([
      { token: TOKEN },
      { token: TOKEN },
    ]);
  });
});
