import { useState } from 'react';
import { errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { secondaryButton } from '../../ui/button-styles';
import { PageSpinner } from '../../ui/spinner';
import { NotificationItem } from './notification-item';
import { useMarkRead, useNotificationsList } from './notifications-api';

const filterClass = (active: boolean) =>
  `rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${
    active
      ? 'bg-zinc-900 text-white dark:bg-white dark:text-zinc-900'
      : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800'
  }`;

/** /notifications: every notification, newest first; 'Unread' shows the unread ones only. */
export function NotificationsPage() {
  useDocumentTitle('Notifications · Takes');
  const [unreadOnly, setUnreadOnly] = useState(false);
  const list = useNotificationsList(unreadOnly);
  const markRead = useMarkRead();
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const unread = list.data?.pages[0]?.unread_count ?? 0;

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight text-zinc-900 dark:text-white">
          Notifications
        </h1>
        <button
          type="button"
          className={secondaryButton}
          disabled={unread === 0 || markRead.isPending}
          onClick={() => markRead.mutate({ all: true })}
        >
          Mark all as read
        </button>
      </div>
      <div role="group" aria-label="Filter" className="mt-6 flex gap-2">
        <button
          type="button"
          aria-pressed={!unreadOnly}
          className={filterClass(!unreadOnly)}
          onClick={() => setUnreadOnly(false)}
        >
          All
        </button>
        <button
          type="button"
          aria-pressed={unreadOnly}
          className={filterClass(unreadOnly)}
          onClick={() => setUnreadOnly(true)}
        >
          Unread
        </button>
      </div>
      <div className="mt-4">
        {list.isPending ? (
          <PageSpinner label="Loading notifications" />
        ) : list.isError ? (
          <Alert tone="error">{errorMessage(list.error, 'Failed to load notifications')}</Alert>
        ) : items.length === 0 ? (
          <p className="py-12 text-center text-zinc-600 dark:text-zinc-300">
            {unreadOnly ? 'No unread notifications.' : 'No notifications yet.'}
          </p>
        ) : (
          <ul aria-label="Notifications" className="space-y-1">
            {items.map((notification) => (
              <li key={notification.id}>
                <NotificationItem
                  notification={notification}
                  onOpen={(opened) => {
                    if (!opened.read) markRead.mutate({ ids: [opened.id] });
                  }}
                />
              </li>
            ))}
          </ul>
        )}
        {list.hasNextPage && (
          <button
            type="button"
            className={`${secondaryButton} mt-4 w-full`}
            disabled={list.isFetchingNextPage}
            onClick={() => void list.fetchNextPage()}
          >
            {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        )}
      </div>
    </div>
  );
}
