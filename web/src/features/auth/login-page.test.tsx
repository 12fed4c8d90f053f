import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedOut, stubApi } from '../repos/test-support';
import { AuthContext } from './auth-context';
import { LoginPage } from './login-page';
import { takeReturnTo } from './return-to';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const providers = {
  google: true,
  apple: true,
  demo: false,
  oidc: null,
  oidc_only: false,
  signups: 'open' as const,
};

/** The sign-in page as an invitation sends a visitor to it: `from` the invitation's address. */
function renderLogin(search: string, from?: string) {
  const state = from ? { from: { pathname: from } } : null;
  const router = createMemoryRouter([{ path: '/login', element: <LoginPage /> }], {
    initialEntries: [{ pathname: '/login', search, state }],
  });
  render(
    <AuthContext value={signedOut}>
      <RouterProvider router={router} />
    </AuthContext>,
  );
}

describe('LoginPage, coming from an invitation', () => {
  it('opens the sign-up form for ?mode=sign-up', async () => {
    stubApi({ '/api/auth/providers': providers });
    renderLogin('?mode=sign-up', '/invite/tok_0123456789abcdef');
    expect(await screen.findByRole('button', { name: 'Sign Up' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Email', selected: true })).toBeTruthy();
  });

  it('remembers the invitation for a magic link opened in another tab', async () => {
    stubApi({ '/api/auth/providers': providers });
    renderLogin('', '/invite/tok_0123456789abcdef');
    await screen.findByRole('tab', { name: 'Social' });
    await waitFor(() => expect(takeReturnTo()).toBe('/invite/tok_0123456789abcdef'));
  });

  it('remembers nothing for a plain visit', async () => {
    stubApi({ '/api/auth/providers': providers });
    renderLogin('');
    await screen.findByRole('tab', { name: 'Social' });
    expect(takeReturnTo()).toBeNull();
  });

  it('asks the provider to send the visitor back to the invitation', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const fetchMock = stubApi({
      '/api/auth/providers': providers,
      '/api/auth/social/google': { url: 'https://accounts.example/auth' },
    });
    renderLogin('', '/invite/tok_0123456789abcdef');
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://accounts.example/auth'));
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/auth/social/google');
    expect(JSON.parse(call?.[1]?.body as string)).toEqual({
      callback_url: '/invite/tok_0123456789abcdef',
    });
  });
});
