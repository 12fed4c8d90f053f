import { DATA_EXPORT_MESSAGES, type DataExport } from '@takes/contract';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { renderAt, stubApi } from '../repos/test-support';
import { ExportDataSection } from './export-data-section';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function exportOf(overrides: Partial<DataExport>): DataExport {
  return {
    id: 'e1',
    state: 'queued',
    progress: 0,
    size: null,
    error: null,
    created_at: '2026-11-23T10:00:00.000Z',
    ready_at: null,
    expires_at: null,
    ...overrides,
  };
}

/** GET answers the next of `states` each time (the last one repeats); POST answers `onPost`. */
function renderSection(states: (DataExport | null)[], onPost: () => unknown) {
  let next = 0;
  const fetchMock = stubApi({
    '/api/exports/latest': () => ({ export: states[Math.min(next++, states.length - 1)] }),
    '/api/exports': (_url: URL, init: RequestInit | undefined) =>
      init?.method === 'POST' ? onPost() : { status: 405, body: { error: 'No' } },
  });
  renderAt(<ExportDataSection />, { pattern: '/settings', url: '/settings' });
  const posts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST').length;
  return { posts };
}

describe("Settings: 'Export my data'", () => {
  it('starts an export, shows its progress, then the download with its size and end; axe clean', async () => {
    const expiresAt = '2026-11-24T10:00:00.000Z';
    const { posts } = renderSection(
      [
        null,
        exportOf({ state: 'running', progress: 40 }),
        exportOf({
          state: 'ready',
          progress: 100,
          size: 2_621_440,
          ready_at: '2026-11-23T10:00:00.000Z',
          expires_at: expiresAt,
        }),
      ],
      () => ({ status: 202, body: exportOf({}) }),
    );
    expect(screen.getByRole('heading', { name: 'Export my data' })).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Export my data' }));
    const bar = await screen.findByRole('progressbar', { name: 'Preparing your export' });
    expect(posts()).toBe(1);
    await vi.waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('40'), { timeout: 3000 });
    expect(screen.getByText('40%')).toBeTruthy();
    expect(await axeViolations()).toEqual([]);

    const link = await screen.findByRole('link', { name: 'Download (2.5 MB)' }, { timeout: 3000 });
    expect(link.getAttribute('href')).toBe('/api/exports/e1/download');
    expect(link.hasAttribute('download')).toBe(true);
    const until = new Date(expiresAt).toLocaleString('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    });
    expect(screen.getByText(`Available until ${until}`)).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(await axeViolations()).toEqual([]);
  });

  it('shows a failed export with its error and a retry; a refused start shows why', async () => {
    const { posts } = renderSection(
      [exportOf({ state: 'failed', error: DATA_EXPORT_MESSAGES.failed })],
      () => ({ status: 409, body: { error: DATA_EXPORT_MESSAGES.alreadyRunning } }),
    );
    const section = await screen.findByRole('region', { name: 'Export my data' });
    expect(await within(section).findByText(DATA_EXPORT_MESSAGES.failed)).toBeTruthy();
    expect(within(section).queryByRole('link')).toBeNull();
    fireEvent.click(within(section).getByRole('button', { name: 'Retry export' }));
    expect(await within(section).findByText(DATA_EXPORT_MESSAGES.alreadyRunning)).toBeTruthy();
    expect(posts()).toBe(1);
  });
});
