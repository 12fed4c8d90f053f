import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { Landed, renderAt, stubApi } from '../repos/test-support';
import { ActivityPanel } from './activity-panel';
import { activityItem } from './test-support';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const first = activityItem();
const second = activityItem({
  id: 'a2',
  kind: 'version.uploaded',
  actor: { user_id: 'u1', name: 'Olive Owner', avatar_url: '/avatars/u1.png' },
  summary: 'Olive Owner uploaded Version 4 on main',
  href: '/projects/p1/branches/b1/versions/v4',
});
const older = activityItem({
  id: 'a3',
  kind: 'branch.created',
  summary: 'Maya created the branch Remix',
  href: null,
});

function renderPanel(source: { projectId: string } | { repoId: string }) {
  renderAt(<ActivityPanel source={source} />, {
    pattern: '/here',
    url: '/here',
    routes: [{ path: '/projects/:p/branches/:b/versions/:v', element: <Landed name="Version" /> }],
  });
}

describe('ActivityPanel', () => {
  it("lists a project's events newest first, each line linking where it happened", async () => {
    const fetchMock = stubApi({
      '/api/projects/p1/activity': { items: [first, second], next_cursor: null },
    });
    renderPanel({ projectId: 'p1' });
    const panel = await screen.findByRole('region', { name: 'Activity' });
    const list = await within(panel).findByRole('list');
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Maya commented at 1:23 on Version 4'),
      expect.stringContaining('Olive Owner uploaded Version 4 on main'),
    ]);
    expect(within(rows[0]!).getByText('M')).toBeTruthy();
    expect(rows[1]!.querySelector('img')?.getAttribute('src')).toBe('/avatars/u1.png');
    expect(within(rows[0]!).getByText('5 minutes ago')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Load more' })).toBeNull();
    const url = new URL(fetchMock.mock.calls[0]![0], 'http://localhost');
    expect(url.searchParams.get('cursor')).toBeNull();

    fireEvent.click(
      within(rows[0]!).getByRole('link', { name: 'Maya commented at 1:23 on Version 4' }),
    );
    expect((await screen.findByTestId('landed-at')).textContent).toBe(
      '/projects/p1/branches/b1/versions/v4?t=83',
    );
  });

  it("'Load more' asks for the next page with the cursor and appends it", async () => {
    const fetchMock = stubApi({
      '/api/repos/r1/activity': (url: URL) =>
        url.searchParams.get('cursor') === 'c2'
          ? { items: [older], next_cursor: null }
          : { items: [first, second], next_cursor: 'c2' },
    });
    renderPanel({ repoId: 'r1' });
    const panel = await screen.findByRole('region', { name: 'Activity' });
    await within(panel).findByText('Maya commented at 1:23 on Version 4');
    fireEvent.click(within(panel).getByRole('button', { name: 'Load more' }));
    expect(await within(panel).findByText('Maya created the branch Remix')).toBeTruthy();
    expect(within(panel).getAllByRole('listitem')).toHaveLength(3);
    expect(within(panel).queryByRole('link', { name: 'Maya created the branch Remix' })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Load more' })).toBeNull();
    const cursors = fetchMock.mock.calls.map(([input]) =>
      new URL(input, 'http://localhost').searchParams.get('cursor'),
    );
    expect(cursors).toEqual([null, 'c2']);
  });

  it('says so when nothing happened yet, and is axe clean', async () => {
    stubApi({ '/api/projects/p1/activity': { items: [], next_cursor: null } });
    renderPanel({ projectId: 'p1' });
    expect(await screen.findByText('No activity yet.')).toBeTruthy();
    cleanup();
    stubApi({ '/api/projects/p1/activity': { items: [first, second], next_cursor: 'c2' } });
    renderPanel({ projectId: 'p1' });
    await screen.findByRole('button', { name: 'Load more' });
    expect(await axeViolations()).toEqual([]);
  });
});
