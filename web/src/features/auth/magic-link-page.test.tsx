import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { AuthContext, type AuthContextValue } from './auth-context';
import { MagicLinkPage } from './magic-link-page';
import { rememberReturnTo } from './return-to';

let fetchMock: Mock<typeof fetch>;
let acceptSession: Mock<AuthContextValue['acceptSession']>;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search + location.hash}</p>;
}

function renderAt(url: string) {
  const router = createMemoryRouter(
    [
      { path: '/magic-link', element: <MagicLinkPage /> },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [url] },
  );
  const auth: AuthContextValue = {
    status: 'signed-out',
    user: null,
    refresh: () => Promise.resolve(),
    signOut: () => Promise.resolve(),
    acceptSession,
  };
  render(
    <AuthContext.Provider value={auth}>
      <RouterProvider router={router} />
    </AuthContext.Provider>,
  );
  return router;
}

const session = {
  user: { id: 'u1', email: 'ana@example.com', name: null, display_name: null, avatar_url: null },
  expires_at: '2026-12-30T00:00:00.000Z',
};

beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
  acceptSession = vi.fn();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('MagicLinkPage', () => {
  it("asks 'Sign in as …?' and signs in only when the button is pressed", async () => {
    fetchMock.mockResolvedValueOnce(json({ email: 'ana@example.com' }));
    const router = renderAt('/magic-link#token=tok-123');
    expect(
      await screen.findByRole('heading', { name: 'Sign in as ana@example.com?' }),
    ).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/magic-code/link/details');
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({
      method: 'POST',
      body: JSON.stringify({ token: 'tok-123' }),
    });
    // The token left the address bar.
    expect(router.state.location.hash).toBe('');
    expect(acceptSession).not.toHaveBeenCalled();

    fetchMock.mockResolvedValueOnce(json(session));
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByTestId('where')).textContent).toBe('/dashboard');
    expect(fetchMock.mock.calls[1]?.[0]).toBe('/api/auth/magic-code/link');
    expect(fetchMock.mock.calls[1]?.[1]).toMatchObject({
      method: 'POST',
      body: JSON.stringify({ token: 'tok-123' }),
    });
    expect(acceptSession).toHaveBeenCalledWith(session);
  });

  it('sends an unknown, used or expired link to the invalid-link message', async () => {
    fetchMock.mockResolvedValueOnce(json({ error: 'Invalid or expired OTP code' }, 400));
    renderAt('/magic-link#token=used');
    expect((await screen.findByTestId('where')).textContent).toBe('/login?error=invalid_link');
  });

  it('sends a link without a token to the invalid-link message', async () => {
    renderAt('/magic-link');
    expect((await screen.findByTestId('where')).textContent).toBe('/login?error=invalid_link');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('goes to the invalid-link message when the link was used meanwhile', async () => {
    fetchMock
      .mockResolvedValueOnce(json({ email: 'ana@example.com' }))
      .mockResolvedValueOnce(json({ error: 'Invalid or expired OTP code' }, 400));
    renderAt('/magic-link#token=tok-9');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect((await screen.findByTestId('where')).textContent).toBe('/login?error=invalid_link');
    expect(acceptSession).not.toHaveBeenCalled();
  });

  it('comes back to where the sign-in started (an invitation), remembered by this browser', async () => {
    rememberReturnTo('/invite/tok_0123456789abcdef');
    fetchMock
      .mockResolvedValueOnce(json({ email: 'ana@example.com' }))
      .mockResolvedValueOnce(json(session));
    renderAt('/magic-link#token=tok-7');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect((await screen.findByTestId('where')).textContent).toBe('/invite/tok_0123456789abcdef');
    // Used once.
    expect(localStorage.getItem('takes.returnTo')).toBeNull();
  });
});
