import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt, stubApi } from '../repos/test-support';
import { DebugPage } from './debug-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DebugPage', () => {
  it('tells a user who is not an admin of the server that the page is not for them', async () => {
    stubApi({});
    renderAt(<DebugPage />, { pattern: '/debug', url: '/debug' });
    expect(
      await screen.findByText(/only available to the administrators of this Takes server/),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Run round trip' })).toBeNull();
  });

  it("shows an admin the server's state", async () => {
    stubApi({
      '/api/debug': {
        database: {
          dialect: 'sqlite',
          migrations: ['0001-jobs', '0002-accounts'],
          latest: '0002-accounts',
        },
        storage: { kind: 'local', status: 'ok' },
        ffmpeg: { status: 'ok', version: 'ffmpeg version 5.1', source: 'system' },
        jobs: { queue: 'embedded', queued: 1, active: 0, completed: 4, failed: 0 },
      },
    });
    renderAt(<DebugPage />, { pattern: '/debug', url: '/debug' });
    const database = await screen.findByRole('region', { name: 'Database' });
    expect(within(database).getByText('Migrations').nextSibling?.textContent).toBe('2');
    expect(within(database).getByText('0002-accounts')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Run round trip' })).toBeTruthy();
  });
});
