import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { DevicesSection } from './devices-section';

let fetchMock: Mock<typeof fetch>;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const cli = {
  id: 'fam-cli',
  name: 'takes CLI on studio-mac',
  created_at: '2026-03-02T10:00:00.000Z',
  last_used_at: new Date(Date.now() - 3 * 60 * 60 * 1000).toISOString(),
};
const desktop = {
  id: 'fam-desktop',
  name: 'Desktop app',
  created_at: '2026-02-14T09:00:00.000Z',
  last_used_at: new Date(Date.now() - 2 * 24 * 60 * 60 * 1000).toISOString(),
};

beforeEach(() => {
  // The desktop and CLI calls, in order; the player-app part below them (its own test) has none.
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    typeof input === 'string' && input.startsWith('/api/player-apps')
      ? Promise.resolve(json({ player_apps: [], server_url: 'https://takes.example' }))
      : fetchMock(input, init),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DevicesSection', () => {
  it('lists each device with its name, when it signed in and when it was last used', async () => {
    fetchMock.mockResolvedValueOnce(json({ devices: [cli, desktop] }));
    render(<DevicesSection />);
    expect(screen.getByRole('heading', { name: 'Devices' })).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Signed-in devices' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual([
      'takes CLI on studio-mac',
      'Desktop app',
    ]);
    expect(rows[0]?.textContent).toContain('Signed in Mar 2, 2026');
    expect(rows[0]?.textContent).toContain('Last used 3 hours ago');
    expect(rows[1]?.textContent).toContain('Signed in Feb 14, 2026');
    expect(rows[1]?.textContent).toContain('Last used 2 days ago');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/desktop/tokens');
  });

  it('says so when no device is signed in', async () => {
    fetchMock.mockResolvedValueOnce(json({ devices: [] }));
    render(<DevicesSection />);
    expect(
      await screen.findByText('No desktop app or CLI is signed in to your account.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Revoke/ })).toBeNull();
  });

  it('revokes one device and lists the rest again', async () => {
    fetchMock
      .mockResolvedValueOnce(json({ devices: [cli, desktop] }))
      .mockResolvedValueOnce(new Response(null, { status: 204 }))
      .mockResolvedValueOnce(json({ devices: [desktop] }));
    render(<DevicesSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke takes CLI on studio-mac' }));

    expect(await screen.findByText('takes CLI on studio-mac was signed out.')).toBeTruthy();
    expect(fetchMock.mock.calls[1]?.[0]).toBe('/api/desktop/tokens/fam-cli');
    expect(fetchMock.mock.calls[1]?.[1]).toMatchObject({ method: 'DELETE' });
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'takes CLI on studio-mac' })).toBeNull(),
    );
    expect(screen.getByRole('listitem', { name: 'Desktop app' })).toBeTruthy();
  });

  it("shows the server's message when revoking fails", async () => {
    fetchMock
      .mockResolvedValueOnce(json({ devices: [cli] }))
      .mockResolvedValueOnce(json({ error: 'Device not found' }, 404));
    render(<DevicesSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke takes CLI on studio-mac' }));
    expect(await screen.findByText('Device not found')).toBeTruthy();
    expect(screen.getByRole('listitem', { name: 'takes CLI on studio-mac' })).toBeTruthy();
  });
});
