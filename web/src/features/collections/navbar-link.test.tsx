import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Navbar } from '../../app/navbar';
import { renderAt, signedIn, signedOut, stubApi } from '../repos/test-support';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Navbar: the Collections link', () => {
  it('shows only when signed in, in the desktop and the mobile menus', async () => {
    stubApi({ '/api/notifications': { items: [], next_cursor: null, unread_count: 0 } });
    renderAt(<Navbar />, { pattern: '/', url: '/', auth: signedIn });
    const links = () => screen.queryAllByRole('link', { name: 'Collections' });
    expect(links()).toHaveLength(1);
    expect(links()[0]!.getAttribute('href')).toBe('/collections');
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(links()).toHaveLength(2);
    cleanup();

    stubApi({});
    renderAt(<Navbar />, { pattern: '/', url: '/', auth: signedOut });
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(links()).toHaveLength(0);
  });
});
