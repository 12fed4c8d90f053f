import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt, stubApi } from '../repos/test-support';
import { UploadPage } from '../upload/upload-page';
import { SettingsPage } from './settings-page';
import { StorageSection } from './storage-usage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const GB = 1024 ** 3;

describe('storage used: /settings and the upload page', () => {
  it("says '12.4 GB of 20 GB used' under Storage on /settings", async () => {
    stubApi({
      '/api/account/storage': { used_bytes: Math.round(12.4 * GB), quota_bytes: 20 * GB },
    });
    renderAt(<SettingsPage />, { pattern: '/settings', url: '/settings' });
    expect(await screen.findByText('12.4 GB of 20 GB used')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Storage' })).toBeTruthy();
  });

  it("says only what is used without a quota: '800 MB used'", async () => {
    stubApi({ '/api/account/storage': { used_bytes: 800 * 1024 ** 2, quota_bytes: null } });
    renderAt(<StorageSection />, { pattern: '/settings', url: '/settings' });
    expect(await screen.findByText('800 MB used')).toBeTruthy();
  });

  it('shows the same line on the upload page', async () => {
    stubApi({
      '/api/account/storage': { used_bytes: Math.round(19.6 * GB), quota_bytes: 20 * GB },
      '/api/projects': [],
      '/api/projects/shared': [],
    });
    renderAt(<UploadPage />, { pattern: '/upload', url: '/upload' });
    expect(await screen.findByText('19.6 GB of 20 GB used')).toBeTruthy();
  });

  it('says nothing when the usage cannot be read', async () => {
    const fetchMock = stubApi({ '/api/account/storage': { status: 500, body: { error: 'No' } } });
    renderAt(<StorageSection />, { pattern: '/settings', url: '/settings' });
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByText(/used$/)).toBeNull();
  });
});
