import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedOut, stubApi } from '../repos/test-support';
import { AuthContext } from './auth-context';
import { LoginPage } from './login-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const providers = {
  google: true,
  apple: false,
  demo: false,
  oidc: null,
  oidc_only: false,
  signups: 'open' as const,
};

function renderLogin(search = '') {
  const router = createMemoryRouter([{ path: '/login', element: <LoginPage /> }], {
    initialEntries: [{ pathname: '/login', search }],
  });
  render(
    <AuthContext value={signedOut}>
      <RouterProvider router={router} />
    </AuthContext>,
  );
}

describe('LoginPage with single sign-on', () => {
  it('offers no single sign-on when the server has none', async () => {
    stubApi({ '/api/auth/providers': providers });
    renderLogin();
    expect(await screen.findByRole('button', { name: 'Continue with Google' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Sign in with/ })).toBeNull();
  });

  it("offers 'Sign in with {name}' beside the other ways in, and starts it", async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const fetchMock = stubApi({
      '/api/auth/providers': { ...providers, oidc: { name: 'Authentik' } },
      '/api/auth/social/oidc': { url: 'https://auth.studio.example/authorize?x=1' },
    });
    renderLogin();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with Authentik' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://auth.studio.example/authorize?x=1'),
    );
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/auth/social/oidc');
    expect(JSON.parse(call?.[1]?.body as string)).toEqual({ callback_url: '/dashboard' });
    expect(screen.getByRole('tab', { name: 'Email' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeTruthy();
  });

  it('offers only single sign-on with OIDC_ONLY', async () => {
    stubApi({
      '/api/auth/providers': { ...providers, oidc: { name: 'Authentik' }, oidc_only: true },
    });
    renderLogin();
    expect(await screen.findByRole('button', { name: 'Sign in with Authentik' })).toBeTruthy();
    expect(screen.queryByRole('tab')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Continue with Google' })).toBeNull();
    expect(screen.queryByLabelText(/email/i)).toBeNull();
    expect(screen.getAllByRole('button')).toHaveLength(1);
  });

  it("shows the reason a provider's return failed", async () => {
    stubApi({ '/api/auth/providers': { ...providers, oidc: { name: 'Authentik' } } });
    renderLogin('?error=state_mismatch&error_description=Sign-in+could+not+be+completed.');
    expect(await screen.findByText('Sign-in could not be completed.')).toBeTruthy();
  });
});
