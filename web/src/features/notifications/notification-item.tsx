import { Link } from 'react-router';
import type { Notification } from '@takes/contract';
import { formatRelativeTime } from '../../lib/format';
import { ActorAvatar } from '../activity/actor-avatar';

/**
 * One notification: a link to where it happened (opening it marks it read). Unread ones are
 * bold with a dot, and say 'Unread' to screen readers.
 */
export function NotificationItem({
  notification,
  onOpen,
}: {
  notification: Notification;
  onOpen: (notification: Notification) => void;
}) {
  const { activity, read } = notification;
  const content = (
    <>
      <ActorAvatar actor={activity.actor} />
      <span className="min-w-0 flex-1">
        <span className={`block break-words ${read ? '' : 'font-semibold'}`}>
          {read ? null : <span className="sr-only">Unread: </span>}
          {activity.summary}
        </span>
        <time
          dateTime={notification.created_at}
          className="block text-xs font-normal text-zinc-600 dark:text-zinc-400"
        >
          {formatRelativeTime(notification.created_at)}
        </time>
      </span>
      {read ? null : (
        <span aria-hidden="true" className="mt-1.5 size-2 shrink-0 rounded-full bg-indigo-600" />
      )}
    </>
  );
  const className = `flex items-start gap-3 rounded-md px-2 py-2 text-left text-sm ${
    read
      ? 'text-zinc-700 dark:text-zinc-300'
      : 'bg-indigo-50/60 text-zinc-900 dark:bg-indigo-950/40 dark:text-white'
  }`;
  if (!activity.href) {
    return (
      <div className={className} data-read={read}>
        {content}
      </div>
    );
  }
  return (
    <Link
      to={activity.href}
      data-read={read}
      onClick={() => onOpen(notification)}
      className={`${className} hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-zinc-800`}
    >
      {content}
    </Link>
  );
}
