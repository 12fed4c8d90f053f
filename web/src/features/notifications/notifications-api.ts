import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { routes, type NotificationsPage } from '@takes/contract';
import { api } from '../../lib/api';

const activity = routes.activity;

/** Live updates refresh every query whose key starts with 'notifications'. */
export const notificationKeys = {
  all: ['notifications'] as const,
  bell: ['notifications', 'bell'] as const,
  list: (unreadOnly: boolean) => ['notifications', 'list', { unreadOnly }] as const,
  preferences: ['notifications', 'preferences'] as const,
};

/** How many the bell's panel shows; the full page has the rest. */
export const BELL_PAGE_SIZE = 10;
export const NOTIFICATIONS_PAGE_SIZE = 20;

const bellQuery = {
  queryKey: notificationKeys.bell,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api.call(activity.listNotifications, { query: { limit: BELL_PAGE_SIZE }, signal }),
};

/** The newest notifications and the unread count, for the navbar's bell. */
export function useBellNotifications() {
  return useQuery(bellQuery);
}

/** /notifications: newest first, a page at a time, all or unread only. */
export function useNotificationsList(unreadOnly: boolean) {
  return useInfiniteQuery({
    queryKey: notificationKeys.list(unreadOnly),
    queryFn: ({ pageParam, signal }) =>
      api.call(activity.listNotifications, {
        query: {
          limit: NOTIFICATIONS_PAGE_SIZE,
          ...(pageParam ? { cursor: pageParam } : {}),
          ...(unreadOnly ? { unread: 'true' as const } : {}),
        },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

export type MarkRead = { ids: string[] } | { all: true } | { href: string };

/** Shows the change at once (read marks, the badge) before the server confirms it. */
function markReadInCache(queryClient: QueryClient, what: MarkRead) {
  const affects = (id: string) => 'all' in what || ('ids' in what && what.ids.includes(id));
  const update = (page: NotificationsPage): NotificationsPage => {
    const newlyRead = page.items.filter((n) => !n.read && affects(n.id)).length;
    return {
      ...page,
      items: page.items.map((n) => (affects(n.id) ? { ...n, read: true } : n)),
      unread_count: 'all' in what ? 0 : Math.max(0, page.unread_count - newlyRead),
    };
  };
  queryClient.setQueryData<NotificationsPage>(notificationKeys.bell, (page) =>
    page ? update(page) : page,
  );
  queryClient.setQueriesData<InfiniteData<NotificationsPage>>(
    { queryKey: ['notifications', 'list'] },
    (data) => (data ? { ...data, pages: data.pages.map(update) } : data),
  );
}

/**
 * Whether the server holds no unread notification, as far as the cache can tell: the bell's
 * count says none (a request for it already on its way is waited for, not asked again), and no
 * list shows one or is still being fetched. Unknown (no bell asked for) is not "none".
 */
async function nothingUnread(queryClient: QueryClient): Promise<boolean> {
  if (queryClient.getQueryState(notificationKeys.bell)?.fetchStatus === 'fetching')
    await queryClient.ensureQueryData(bellQuery).catch(() => undefined);
  const bell = queryClient.getQueryData<NotificationsPage>(notificationKeys.bell);
  if (!bell || bell.unread_count > 0) return false;
  return queryClient
    .getQueryCache()
    .findAll({ queryKey: ['notifications', 'list'] })
    .every(
      (query) =>
        query.state.fetchStatus === 'idle' &&
        (query.state.data as InfiniteData<NotificationsPage> | undefined)?.pages.every(
          (page) => page.unread_count === 0,
        ) !== false,
    );
}

/** Marks notifications read (by id, all, or those of a target) and refreshes the lists. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (what: MarkRead) => api.call(activity.markNotificationsRead, { body: what }),
    onMutate: async (what) => {
      // A target's notifications are not known by id here: nothing to show before the server
      // answers, and the bell's own request (often still on its way as a page opens) goes on.
      if ('href' in what) return;
      await queryClient.cancelQueries({ queryKey: notificationKeys.all });
      markReadInCache(queryClient, what);
    },
    onSettled: async (_data, _error, what) => {
      // Opening a page marks its target read on every visit; with nothing unread, nothing changed
      // (a notification arriving meanwhile comes with its own live event), so nothing is asked
      // again and nothing renders again.
      if (what && 'href' in what && (await nothingUnread(queryClient))) return;
      // A request made before the mark may answer with what it changed: asked again, not joined.
      await queryClient.cancelQueries({ queryKey: notificationKeys.all });
      return queryClient.invalidateQueries({
        queryKey: notificationKeys.all,
        predicate: (query) => query.queryKey[1] !== 'preferences',
      });
    },
  });
}
