import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { PLAYER_APP_MESSAGES, type PlayerApp } from '@takes/contract';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { PlayerApps } from './player-apps';

let fetchMock: Mock<typeof fetch>;
let writeText: Mock<(text: string) => Promise<void>>;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const serverUrl = 'https://takes.example';
const apiKey = 'tks_ab12cd34ef56gh78ij90kl12mn34op56';

const car: PlayerApp = {
  id: 'pa-car',
  name: 'Car (Symfonium)',
  latest_only: true,
  key_prefix: 'tks_ab12',
  created_at: '2026-03-02T10:00:00.000Z',
  last_used_at: new Date(Date.now() - 3 * 60 * 1000).toISOString(),
  last_client: 'Symfonium',
};
const phone: PlayerApp = {
  id: 'pa-phone',
  name: 'Phone',
  latest_only: false,
  key_prefix: 'tks_zz99',
  created_at: '2026-02-14T09:00:00.000Z',
  last_used_at: null,
  last_client: null,
};
const list = (...playerApps: PlayerApp[]) =>
  json({ player_apps: playerApps, server_url: serverUrl });

beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
  writeText = vi.fn((_text: string) => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The request the n-th fetch sent: its address, method and JSON body. */
function sent(n: number) {
  const [input, init] = fetchMock.mock.calls[n] ?? [];
  const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
  return { url: typeof input === 'string' ? input : '', method: init?.method ?? 'GET', body };
}

async function openForm() {
  fireEvent.click(await screen.findByRole('button', { name: 'Add a player app' }));
  return screen.getByRole('form', { name: 'Add a player app' });
}

describe('PlayerApps', () => {
  it('lists each key with its name, prefix, date and last use, and is axe-clean', async () => {
    fetchMock.mockResolvedValueOnce(list(car, phone));
    render(<PlayerApps />);
    expect(screen.getByRole('heading', { name: 'Player apps' })).toBeTruthy();
    const keys = await screen.findByRole('list', { name: 'Player app keys' });
    const rows = within(keys).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual(['Car (Symfonium)', 'Phone']);
    expect(rows[0]?.textContent).toContain('Only the latest version of each branch');
    expect(rows[0]?.textContent).toContain('Key tks_ab12…');
    expect(rows[0]?.textContent).toContain('Added Mar 2, 2026');
    expect(rows[0]?.textContent).toContain('Last used 3 minutes ago by Symfonium');
    expect(rows[1]?.textContent).not.toContain('Only the latest version');
    expect(rows[1]?.textContent).toContain('Key tks_zz99…');
    expect(rows[1]?.textContent).toContain('Never used');
    expect(screen.getByRole('button', { name: 'Revoke Car (Symfonium)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Revoke Phone' })).toBeTruthy();
    expect(screen.getByText(/Symfonium, Amperfy, Tempo, Substreamer, play:Sub/)).toBeTruthy();
    expect(sent(0)).toMatchObject({ url: '/api/player-apps', method: 'GET' });
    expect(await axeViolations()).toEqual([]);
  });

  it('says so when there is no key yet, and when the list cannot load', async () => {
    fetchMock.mockResolvedValueOnce(list());
    render(<PlayerApps />);
    expect(await screen.findByText('No player app has a key yet.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Revoke/ })).toBeNull();
    cleanup();

    fetchMock.mockResolvedValueOnce(json({ error: 'Something broke' }, 500));
    render(<PlayerApps />);
    expect((await screen.findByRole('alert')).textContent).toBe('Something broke');
  });

  it('adds a player app: the key and the server address are shown once, gone after Done', async () => {
    const created = { ...phone, id: 'pa-car', name: 'Car', latest_only: true };
    fetchMock
      .mockResolvedValueOnce(list(phone))
      .mockResolvedValueOnce(
        json({ player_app: created, api_key: apiKey, server_url: serverUrl }, 201),
      )
      .mockResolvedValueOnce(list(created, phone));
    render(<PlayerApps />);
    const form = await openForm();
    const name = within(form).getByRole<HTMLInputElement>('textbox', { name: 'Name' });
    expect(document.activeElement).toBe(name);
    expect(name.placeholder).toBe('Car (Symfonium)');
    fireEvent.change(name, { target: { value: '  Car ' } });
    fireEvent.click(
      within(form).getByRole('checkbox', { name: 'Only the latest version of each branch' }),
    );
    fireEvent.click(within(form).getByRole('button', { name: 'Create key' }));

    const panel = await screen.findByRole('group', { name: 'Key for Car' });
    expect(sent(1)).toEqual({
      url: '/api/player-apps',
      method: 'POST',
      body: { name: 'Car', latest_only: true },
    });
    const address = within(panel).getByRole<HTMLInputElement>('textbox', {
      name: 'Server address',
    });
    const key = within(panel).getByRole<HTMLInputElement>('textbox', { name: 'API key' });
    expect([address.value, address.readOnly]).toEqual([serverUrl, true]);
    expect([key.value, key.readOnly]).toEqual([apiKey, true]);
    expect(panel.textContent).toContain('Copy this key now: it is shown only once.');
    expect(panel.textContent).toContain('API key (OpenSubsonic)');
    expect(screen.queryByRole('form', { name: 'Add a player app' })).toBeNull();
    // The list is read again and holds the new key already.
    expect(await screen.findByRole('listitem', { name: 'Car' })).toBeTruthy();
    expect(await axeViolations()).toEqual([]);

    await act(async () => {
      fireEvent.click(within(panel).getByRole('button', { name: 'Copy API key' }));
      await Promise.resolve();
    });
    expect(writeText).toHaveBeenCalledWith(apiKey);
    expect(within(panel).getByRole('status').textContent).toBe('API key copied to the clipboard');

    fireEvent.click(within(panel).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('group', { name: 'Key for Car' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'API key' })).toBeNull();
    expect(document.body.innerHTML).not.toContain(apiKey);
    const add = screen.getByRole('button', { name: 'Add a player app' });
    expect(document.activeElement).toBe(add);
    expect(screen.getByRole('listitem', { name: 'Car' }).textContent).toContain('Never used');
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('asks for a name before sending, and can be cancelled', async () => {
    fetchMock.mockResolvedValueOnce(list());
    render(<PlayerApps />);
    const form = await openForm();
    fireEvent.change(within(form).getByRole('textbox', { name: 'Name' }), {
      target: { value: '   ' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Create key' }));
    expect(within(form).getByText(PLAYER_APP_MESSAGES.nameRequired)).toBeTruthy();
    const name = within(form).getByRole('textbox', { name: 'Name' });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(name);

    fireEvent.change(name, { target: { value: 'x'.repeat(61) } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create key' }));
    expect(within(form).getByText(PLAYER_APP_MESSAGES.nameTooLong)).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);

    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Add a player app' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add a player app' }));
  });

  it.each([
    [409, PLAYER_APP_MESSAGES.tooMany, undefined],
    [403, PLAYER_APP_MESSAGES.demo, 'demo_not_allowed'],
    [400, PLAYER_APP_MESSAGES.nameTooLong, 'validation_error'],
  ])("shows the server's refusal (%i) and keeps the form", async (status, message, code) => {
    fetchMock
      .mockResolvedValueOnce(list())
      .mockResolvedValueOnce(json({ error: message, ...(code ? { code } : {}) }, status));
    render(<PlayerApps />);
    const form = await openForm();
    fireEvent.change(within(form).getByRole('textbox', { name: 'Name' }), {
      target: { value: 'Car' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Create key' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(message);
    expect(screen.queryByRole('textbox', { name: 'API key' })).toBeNull();
    expect(
      within(form).getByRole<HTMLButtonElement>('button', { name: 'Create key' }).disabled,
    ).toBe(false);
  });

  it('revokes a key after confirming, says so and lists the rest', async () => {
    fetchMock
      .mockResolvedValueOnce(list(car, phone))
      .mockResolvedValueOnce(new Response(null, { status: 204 }))
      .mockResolvedValueOnce(list(phone));
    render(<PlayerApps />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Car (Symfonium)' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke player app' });
    expect(dialog.textContent).toContain('Car (Symfonium)');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));

    expect(
      await screen.findByText(
        'Car (Symfonium) was revoked. Its player app can no longer play your music.',
      ),
    ).toBeTruthy();
    expect(sent(1)).toMatchObject({ url: '/api/player-apps/pa-car', method: 'DELETE' });
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'Car (Symfonium)' })).toBeNull(),
    );
    expect(screen.getByRole('listitem', { name: 'Phone' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Player apps' }));
  });

  it('keeps the key when revoking is cancelled or fails', async () => {
    fetchMock
      .mockResolvedValueOnce(list(car))
      .mockResolvedValueOnce(json({ error: 'PlayerApp not found' }, 404));
    render(<PlayerApps />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Car (Symfonium)' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByRole('button', { name: 'Revoke Car (Symfonium)' }));
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('PlayerApp not found');
    expect(screen.getByRole('listitem', { name: 'Car (Symfonium)' })).toBeTruthy();
  });
});
