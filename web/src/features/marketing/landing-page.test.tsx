import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { LandingPage } from './landing-page';

let fetchMock: Mock<typeof fetch>;

function providers(demo: boolean) {
  return new Response(JSON.stringify({ google: false, apple: false, demo }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}

beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("LandingPage's 'Try demo'", () => {
  it('links to the demo sign-in when the server offers the demo', async () => {
    fetchMock.mockResolvedValue(providers(true));
    render(
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>,
    );
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/providers');
    expect(screen.getByRole('link', { name: 'Try demo' }).getAttribute('href')).toBe(
      '/login?demo=true',
    );
  });

  it('is hidden when the server has the demo turned off (DEMO_ENABLED=false)', async () => {
    fetchMock.mockResolvedValue(providers(false));
    render(
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>,
    );
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Try demo' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Sign up for free' })).toBeTruthy();
    expect(screen.queryByText(/look around a demo workspace/)).toBeNull();
  });
});
