import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notification } from '../features/activity/test-support';
import { renderAt, signedIn, signedOut, stubApi } from '../features/repos/test-support';
import { Navbar } from './navbar';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Navbar: the Notifications bell', () => {
  it('is there when signed in, with the unread count', async () => {
    stubApi({
      '/api/notifications': { items: [notification()], next_cursor: null, unread_count: 1 },
    });
    renderAt(<Navbar />, { pattern: '/', url: '/', auth: signedIn });
    // The bell is its own chunk: the first import may take a while in a cold test run.
    expect(
      await screen.findByRole('button', { name: 'Notifications' }, { timeout: 5000 }),
    ).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('notification-badge').textContent).toBe('1'));
  });

  it('is not there when signed out, and asks for nothing', async () => {
    const fetchMock = stubApi({});
    renderAt(<Navbar />, { pattern: '/', url: '/', auth: signedOut });
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Notifications' })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
