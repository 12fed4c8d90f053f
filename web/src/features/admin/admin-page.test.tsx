import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminUser } from '@takes/contract';
import { renderAt, stubApi } from '../repos/test-support';
import { AdminPage } from './admin-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const GB = 1024 ** 3;

function person(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id: 'u2',
    name: 'Sam Keys',
    email: 'sam@example.com',
    joined_at: '2026-03-01T10:00:00.000Z',
    last_seen_at: '2026-11-20T10:00:00.000Z',
    storage_used_bytes: 12.4 * GB,
    storage_quota_bytes: null,
    effective_quota_bytes: 20 * GB,
    projects: 3,
    disabled_at: null,
    links_disabled: false,
    admin: false,
    ...overrides,
  };
}

const report = {
  database: {
    dialect: 'sqlite',
    migrations: ['0001-jobs', '0002-accounts'],
    latest: '0002-accounts',
  },
  storage: { kind: 'local', status: 'ok' },
  ffmpeg: { status: 'ok', version: 'ffmpeg version 5.1', source: 'system' },
  jobs: { queue: 'embedded', queued: 1, active: 0, completed: 4, failed: 0 },
};

function adminApi(overrides: Record<string, unknown> = {}) {
  return stubApi({
    '/api/admin/users': { users: [person()] },
    '/api/admin/signups': {
      policy: 'open',
      source: 'environment',
      environment_policy: 'open',
      allowed_domains: ['label.example'],
    },
    '/api/admin/link-defaults': { expires_in_days: null, allow_downloads: false },
    '/api/admin/storage': {
      total_bytes: 30 * GB,
      by_kind: { originals: 20 * GB, renditions: 6 * GB, lossless: 4 * GB, images: 0, other: 0 },
    },
    '/api/admin/actions': { actions: [], next_cursor: null },
    '/api/debug': report,
    ...overrides,
  });
}

describe('AdminPage', () => {
  it('tells a user who is not an admin of the server that the page is not for them', async () => {
    stubApi({});
    renderAt(<AdminPage />, { pattern: '/admin', url: '/admin' });
    expect(
      await screen.findByText(/only available to the administrators of this Takes server/),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Run round trip' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'People' })).toBeNull();
  });

  it('shows the people, the sign-up policy, storage and the server’s health', async () => {
    adminApi();
    renderAt(<AdminPage />, { pattern: '/admin', url: '/admin' });
    const row = await screen.findByRole('row', { name: 'sam@example.com' });
    expect(within(row).getByText('12.4 GB of 20 GB')).toBeTruthy();
    expect(within(row).getByText('3')).toBeTruthy();
    const signups = screen.getByRole('region', { name: 'Sign-ups' });
    expect(await within(signups).findByText(/Allowed domains: label\.example/)).toBeTruthy();
    const storage = screen.getByRole('region', { name: 'Storage used' });
    expect(await within(storage).findByText('30 GB')).toBeTruthy();
    const database = await screen.findByRole('region', { name: 'Database' });
    expect(within(database).getByText('Migrations').nextSibling?.textContent).toBe('2');
    expect(screen.getByRole('button', { name: 'Run round trip' })).toBeTruthy();
  });

  it('disables a person, asking whether their share links keep working', async () => {
    const disable = vi.fn(() => person({ disabled_at: '2026-11-29T10:00:00.000Z' }));
    const fetchMock = adminApi({ '/api/admin/users/u2/disable': disable });
    renderAt(<AdminPage />, { pattern: '/admin', url: '/admin' });
    const row = await screen.findByRole('row', { name: 'sam@example.com' });
    fireEvent.click(within(row).getByRole('button', { name: 'Disable' }));
    fireEvent.click(within(row).getByRole('radio', { name: 'Stop working' }));
    fireEvent.click(within(row).getByRole('button', { name: 'Disable Sam Keys' }));
    await waitFor(() => expect(disable).toHaveBeenCalled());
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/disable'));
    expect(JSON.parse(call?.[1]?.body as string)).toEqual({ keep_links: false });
  });

  it('stores a sign-up policy over SIGNUPS', async () => {
    const put = vi.fn(() => ({
      policy: 'closed',
      source: 'stored',
      environment_policy: 'open',
      allowed_domains: [],
    }));
    const fetchMock = adminApi({
      '/api/admin/signups': (_url: URL, init?: RequestInit) =>
        init?.method === 'PUT'
          ? put()
          : {
              policy: 'open',
              source: 'environment',
              environment_policy: 'open',
              allowed_domains: [],
            },
    });
    renderAt(<AdminPage />, { pattern: '/admin', url: '/admin' });
    const signups = await screen.findByRole('region', { name: 'Sign-ups' });
    const select = await within(signups).findByRole('combobox', { name: 'Who may sign up' });
    fireEvent.change(select, { target: { value: 'closed' } });
    fireEvent.click(within(signups).getByRole('button', { name: 'Save sign-up policy' }));
    await waitFor(() => expect(put).toHaveBeenCalled());
    const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(call?.[1]?.body as string)).toEqual({ policy: 'closed' });
  });
});
