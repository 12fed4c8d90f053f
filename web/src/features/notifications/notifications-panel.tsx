import { useId } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../lib/api';
import { linkButton } from '../../ui/button-styles';
import { Spinner } from '../../ui/spinner';
import { NotificationItem } from './notification-item';
import { useBellNotifications, useMarkRead } from './notifications-api';

/** The bell's panel: the newest notifications, 'Mark all as read', and the full page. */
export function NotificationsPanel({ id, onClose }: { id: string; onClose: () => void }) {
  const headingId = useId();
  const bell = useBellNotifications();
  const markRead = useMarkRead();
  const items = bell.data?.items ?? [];
  const unread = bell.data?.unread_count ?? 0;

  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="absolute right-0 z-50 mt-2 w-80 max-w-[calc(100vw-2rem)] rounded-lg border border-zinc-200 bg-white p-3 shadow-lg sm:w-96 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex items-center justify-between gap-2 px-2">
        <h2 id={headingId} className="text-sm font-semibold">
          Notifications
        </h2>
        <button
          type="button"
          className={linkButton}
          disabled={unread === 0 || markRead.isPending}
          onClick={() => markRead.mutate({ all: true })}
        >
          Mark all as read
        </button>
      </div>
      {bell.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner label="Loading notifications" />
        </div>
      ) : bell.isError ? (
        <p role="alert" className="px-2 py-4 text-sm text-red-700 dark:text-red-400">
          {errorMessage(bell.error, 'Failed to load notifications')}
        </p>
      ) : items.length === 0 ? (
        <p className="px-2 py-6 text-center text-sm text-zinc-600 dark:text-zinc-300">
          No notifications yet.
        </p>
      ) : (
        <ul className="mt-2 max-h-96 space-y-1 overflow-y-auto">
          {items.map((notification) => (
            <li key={notification.id}>
              <NotificationItem
                notification={notification}
                onOpen={(opened) => {
                  if (!opened.read) markRead.mutate({ ids: [opened.id] });
                  onClose();
                }}
              />
            </li>
          ))}
        </ul>
      )}
      <div className="mt-2 border-t border-zinc-100 px-2 pt-2 dark:border-zinc-800">
        <Link to="/notifications" className={linkButton} onClick={onClose}>
          See all notifications
        </Link>
      </div>
    </section>
  );
}
