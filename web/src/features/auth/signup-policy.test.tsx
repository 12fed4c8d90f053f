import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SIGNUP_MESSAGES, type SignupPolicyName } from '@takes/contract';
import { signedOut, stubApi } from '../repos/test-support';
import { AuthContext } from './auth-context';
import { LoginPage } from './login-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function providers(signups: SignupPolicyName) {
  return { google: false, apple: false, demo: false, oidc: null, oidc_only: false, signups };
}

function renderLogin(search: string) {
  const router = createMemoryRouter([{ path: '/login', element: <LoginPage /> }], {
    initialEntries: [{ pathname: '/login', search }],
  });
  render(
    <AuthContext value={signedOut}>
      <RouterProvider router={router} />
    </AuthContext>,
  );
}

async function openEmailTab() {
  fireEvent.click(await screen.findByRole('tab', { name: 'Email' }));
}

describe('the sign-in page under the sign-up policy', () => {
  it("offers 'Sign Up' when sign-ups are open, with no policy message", async () => {
    stubApi({ '/api/auth/providers': providers('open') });
    renderLogin('');
    await openEmailTab();
    expect(await screen.findByRole('button', { name: 'Need an account? Sign Up' })).toBeTruthy();
    expect(screen.queryByText(SIGNUP_MESSAGES.inviteOnly)).toBeNull();
    expect(screen.queryByText(SIGNUP_MESSAGES.closed)).toBeNull();
  });

  it.each([
    ['invite-only', SIGNUP_MESSAGES.inviteOnly],
    ['closed', SIGNUP_MESSAGES.closed],
  ] as const)('says why sign-up is not offered under %s, in its place', async (policy, message) => {
    stubApi({ '/api/auth/providers': providers(policy) });
    renderLogin('');
    await openEmailTab();
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Need an account? Sign Up' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
  });

  it('keeps the sign-up form for invited people, with the message above it, and shows a refusal', async () => {
    stubApi({
      '/api/auth/providers': providers('closed'),
      '/api/auth/sign-up/email': {
        status: 403,
        body: { error: SIGNUP_MESSAGES.closed, code: 'forbidden' },
      },
    });
    renderLogin('?mode=sign-up');
    expect(await screen.findByText(SIGNUP_MESSAGES.closed)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email', { selector: 'input' }), {
      target: { value: 'new@example.com' },
    });
    fireEvent.change(screen.getByLabelText('Password', { selector: 'input' }), {
      target: { value: 'violet-mixdown-47' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert.textContent).toBe(SIGNUP_MESSAGES.closed));
  });
});
