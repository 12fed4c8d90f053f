import type { Notification } from '@takes/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../ui/axe-test-support';
import { activityItem, notification } from '../activity/test-support';
import { Landed, renderAt, stubApi } from '../repos/test-support';
import { NotificationBell } from './notification-bell';
import { NotificationsPage } from './notifications-page';
import { useMarkTargetRead } from './use-mark-target-read';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const comment = notification();
const version = notification({
  id: 'n2',
  category: 'versions',
  activity: activityItem({
    id: 'a2',
    kind: 'version.uploaded',
    summary: 'Eddie uploaded Version 5 on main',
    href: '/projects/p1/branches/b1/versions/v5',
  }),
});
const membership = notification({
  id: 'n3',
  category: 'membership',
  read: true,
  activity: activityItem({
    id: 'a3',
    kind: 'member.joined',
    summary: 'Eddie joined Night Drive',
    href: '/projects/p1',
  }),
});

/** A server holding these notifications: lists them and marks them read as asked. */
function notificationServer(initial: Notification[]) {
  let items = initial.map((n) => ({ ...n }));
  const page = (url: URL) => {
    const shown = url.searchParams.get('unread') === 'true' ? items.filter((n) => !n.read) : items;
    return {
      items: shown,
      next_cursor: null,
      unread_count: items.filter((n) => !n.read).length,
    };
  };
  const fetchMock = stubApi({
    '/api/notifications': page,
    '/api/notifications/read': (_url: URL, init: RequestInit | undefined) => {
      const body = JSON.parse(init?.body as string) as {
        ids?: string[];
        all?: true;
        href?: string;
      };
      items = items.map((n) =>
        body.all || body.ids?.includes(n.id) || body.href === n.activity.href
          ? { ...n, read: true }
          : n,
      );
      return Promise.resolve(new Response(null, { status: 204 }));
    },
  });
  const posts = () =>
    fetchMock.mock.calls
      .filter(([, init]) => init?.method === 'POST')
      .map(([, init]) => JSON.parse(init?.body as string) as unknown);
  return { fetchMock, posts };
}

function renderBell() {
  renderAt(<NotificationBell />, {
    pattern: '/',
    url: '/',
    routes: [
      {
        // The bell sits in the navbar, on every page.
        path: '/projects/:p/branches/:b/versions/:v',
        element: (
          <>
            <NotificationBell />
            <Landed name="Version" />
          </>
        ),
      },
      { path: '/notifications', element: <Landed name="All notifications" /> },
    ],
  });
}

/** The panel is its own chunk: the first import may take a while in a cold test run. */
const openPanel = () => screen.findByRole('region', { name: 'Notifications' }, { timeout: 5000 });

const badge = () => screen.queryByTestId('notification-badge');

describe('NotificationBell', () => {
  it('shows the unread count on the bell, and no badge at 0', async () => {
    notificationServer([comment, version, membership]);
    renderBell();
    const bell = screen.getByRole('button', { name: 'Notifications' });
    await waitFor(() => expect(badge()?.textContent).toBe('2'));
    expect(bell.getAttribute('aria-expanded')).toBe('false');
    expect(bell.getAttribute('aria-describedby')).toBeTruthy();
    cleanup();

    notificationServer([membership]);
    renderBell();
    await screen.findByRole('button', { name: 'Notifications' });
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(badge()).toBeNull();
  });

  it('opens a panel listing notifications newest first, unread ones marked; axe clean', async () => {
    notificationServer([comment, version, membership]);
    renderBell();
    await waitFor(() => expect(badge()?.textContent).toBe('2'));
    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    const panel = await openPanel();
    const links = within(panel)
      .getAllByRole('listitem')
      .map((item) => within(item).getByRole('link'));
    expect(links.map((link) => link.textContent)).toEqual([
      expect.stringContaining('Unread: Maya commented at 1:23 on Version 4'),
      expect.stringContaining('Unread: Eddie uploaded Version 5 on main'),
      expect.not.stringContaining('Unread'),
    ]);
    expect(links.map((link) => link.getAttribute('data-read'))).toEqual(['false', 'false', 'true']);
    expect(within(panel).getByRole('link', { name: 'See all notifications' })).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
  });

  it("'Mark all as read' clears the badge", async () => {
    const server = notificationServer([comment, version, membership]);
    renderBell();
    await waitFor(() => expect(badge()?.textContent).toBe('2'));
    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    const panel = await openPanel();
    await within(panel).findAllByRole('listitem');
    fireEvent.click(within(panel).getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(badge()).toBeNull());
    expect(server.posts()).toEqual([{ all: true }]);
    await waitFor(() => expect(within(panel).queryByText('Unread:', { exact: false })).toBeNull());
  });

  it('an item opens its target (seeking to the comment) and marks it read', async () => {
    const server = notificationServer([comment, version]);
    renderBell();
    await waitFor(() => expect(badge()?.textContent).toBe('2'));
    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    const panel = await openPanel();
    fireEvent.click(
      await within(panel).findByRole('link', { name: /Maya commented at 1:23 on Version 4/ }),
    );
    expect((await screen.findByTestId('landed-at')).textContent).toBe(
      '/projects/p1/branches/b1/versions/v4?t=83',
    );
    expect(screen.queryByRole('region', { name: 'Notifications' })).toBeNull();
    expect(server.posts()).toEqual([{ ids: ['n1'] }]);
    await waitFor(() => expect(badge()?.textContent).toBe('1'));
  });
});

describe('useMarkTargetRead: opening a page marks its notifications read', () => {
  /** A page beside the navbar's bell that marks its target read once `ready`. */
  function PageReading({ href }: { href: string }) {
    useMarkTargetRead(href, true);
    return <Landed name="Project" />;
  }
  const bellReads = (fetchMock: ReturnType<typeof stubApi>) =>
    fetchMock.mock.calls.filter(
      ([url, init]) =>
        (init?.method ?? 'GET') === 'GET' && String(url).includes('/api/notifications'),
    ).length;

  function renderPageWithBell() {
    renderAt(
      <>
        <NotificationBell />
        <PageReading href="/projects/p1" />
      </>,
      { pattern: '/projects/:p', url: '/projects/p1' },
    );
  }

  it("marks the target's notifications read and the badge follows", async () => {
    // The membership notification's target is this project, and it is unread here.
    const unreadMembership = notificationServer([comment, { ...membership, read: false }]);
    renderPageWithBell();
    await waitFor(() => expect(unreadMembership.posts()).toEqual([{ href: '/projects/p1' }]));
    await waitFor(() => expect(badge()?.textContent).toBe('1'));
    // The bell asked again after the mark: what it showed had changed.
    expect(bellReads(unreadMembership.fetchMock)).toBeGreaterThanOrEqual(2);
  });

  it('with nothing unread, marks once and asks the bell nothing again', async () => {
    const server = notificationServer([membership]);
    renderPageWithBell();
    await waitFor(() => expect(server.posts()).toEqual([{ href: '/projects/p1' }]));
    await waitFor(() => expect(bellReads(server.fetchMock)).toBe(1));
    // Let the mark's answer settle: no second request for the bell follows it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bellReads(server.fetchMock)).toBe(1);
    expect(badge()).toBeNull();
  });
});

describe('NotificationsPage', () => {
  function renderPage() {
    renderAt(<NotificationsPage />, { pattern: '/notifications', url: '/notifications' });
  }

  it("lists every notification, and 'Unread' shows the unread ones only", async () => {
    const server = notificationServer([comment, version, membership]);
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Notifications', level: 1 })).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Notifications' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'All' }).getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Unread' }));
    expect(screen.getByRole('button', { name: 'Unread' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Notifications' })).getAllByRole('listitem'),
      ).toHaveLength(2),
    );
    expect(screen.queryByText('Eddie joined Night Drive')).toBeNull();
    const unreadAsked = server.fetchMock.mock.calls.some(
      ([input]) => new URL(input, 'http://localhost').searchParams.get('unread') === 'true',
    );
    expect(unreadAsked).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByText('No unread notifications.')).toBeTruthy();
    expect(server.posts()).toEqual([{ all: true }]);
  });

  it("'Load more' asks for the next page with the cursor", async () => {
    const fetchMock = stubApi({
      '/api/notifications': (url: URL) =>
        url.searchParams.get('cursor') === 'c2'
          ? { items: [membership], next_cursor: null, unread_count: 2 }
          : { items: [comment, version], next_cursor: 'c2', unread_count: 2 },
    });
    renderPage();
    await screen.findByText(/Maya commented/);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Eddie joined Night Drive')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    const cursors = fetchMock.mock.calls.map(([input]) =>
      new URL(input, 'http://localhost').searchParams.get('cursor'),
    );
    expect(cursors).toEqual([null, 'c2']);
  });
});
