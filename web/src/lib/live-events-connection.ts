import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { routes } from '@takes/contract';
import { commentKeys } from '../features/comments/comments-api';
import { queryKeys } from '../features/projects/projects-api';
import { repoKeys } from '../features/repos/repos-api';
import { shareKeys } from '../features/share/share-api';
import { versionKeys } from '../features/versions/versions-api';
import { api } from './api';

/**
 * Live updates: one Server-Sent Events stream per tab (`GET /api/events`) tells the app which of
 * its queries to refresh when something happens elsewhere, a comment, a processed version, a new
 * member. A signed-in tab hears of everything it can see; a share page (`?link=KEY`) only of its
 * version's comments. A dropped stream is opened again with backoff, and everything it covers is
 * refreshed then (events may have been missed meanwhile). The processing pollers keep working
 * without it.
 */

/** What the server sends: the hints of one event (a share page gets kind and version only). */
export interface LiveHint {
  type: 'activity';
  kind: string;
  activityId?: string;
  projectId?: string | null;
  repoId?: string | null;
  versionId?: string | null;
}

/** One query filter to refresh: a prefix, or exactly this key. */
export interface Refresh {
  queryKey: QueryKey;
  exact?: boolean;
}

/** What a stream is for: the signed-in person, or a share page's link. */
export type LiveTarget = { kind: 'user' } | { kind: 'link'; hash: string };

/** Queries every signed-in screen may show of anything (the bell, the Activity panel, the dashboard). */
const EVERYWHERE: Refresh[] = [
  { queryKey: ['notifications'] },
  { queryKey: ['activity'] },
  { queryKey: queryKeys.stats },
];

/** The queries an event makes stale, for this kind of stream. */
export function refreshesFor(hint: LiveHint, target: LiveTarget): Refresh[] {
  if (target.kind === 'link') {
    if (hint.kind.startsWith('comment.')) return [{ queryKey: commentKeys.link(target.hash) }];
    // The review status shows on the listener's page: refetch what the link opens.
    if (hint.kind === 'version.review_changed')
      return [{ queryKey: shareKeys.shared(target.hash) }];
    return [];
  }
  const out: Refresh[] = [...EVERYWHERE];
  if (hint.projectId) {
    // The project page, its branches and their versions; the lists that show the project.
    out.push(
      { queryKey: queryKeys.project(hint.projectId) },
      { queryKey: queryKeys.projects, exact: true },
      { queryKey: queryKeys.projectPages },
      { queryKey: queryKeys.shared, exact: true },
    );
  }
  if (hint.versionId) {
    out.push({ queryKey: versionKeys.version(hint.versionId) });
    if (hint.kind.startsWith('comment.'))
      out.push({ queryKey: commentKeys.versionAll(hint.versionId) });
    if (hint.kind.startsWith('version.'))
      out.push({ queryKey: queryKeys.processing(hint.versionId) });
  }
  if (hint.repoId) {
    out.push(
      { queryKey: repoKeys.repo(hint.repoId) },
      { queryKey: repoKeys.list },
      { queryKey: ['bounces'] },
    );
  }
  if (hint.kind.startsWith('member.')) out.push({ queryKey: ['members'] });
  return out;
}

/** After a reconnection: whatever events may have been missed could have changed. */
function refreshAfterGap(target: LiveTarget): Refresh[] {
  if (target.kind === 'link') return [{ queryKey: commentKeys.link(target.hash) }];
  return [
    ...EVERYWHERE,
    { queryKey: ['projects'] },
    { queryKey: ['versions'] },
    { queryKey: ['comments'] },
    { queryKey: ['processing'] },
    { queryKey: ['repos'] },
    { queryKey: ['bounces'] },
    { queryKey: ['members'] },
  ];
}

/** The subset of EventSource this uses (a test passes a fake). */
export interface EventSourceLike {
  onopen: ((this: EventSourceLike, event: Event) => unknown) | null;
  onmessage: ((this: EventSourceLike, event: MessageEvent) => unknown) | null;
  onerror: ((this: EventSourceLike, event: Event) => unknown) | null;
  close(): void;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

export interface LiveEventsOptions {
  /** How to open the stream; the browser's EventSource by default. */
  open?: EventSourceFactory;
  /** First wait before reopening a dropped stream; doubles each failure up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

export const LIVE_INITIAL_DELAY_MS = 1000;
export const LIVE_MAX_DELAY_MS = 30_000;

export function liveEventsUrl(target: LiveTarget): string {
  return api.url(routes.activity.streamEvents, {
    query: target.kind === 'link' ? { link: target.hash } : {},
  });
}

/**
 * Opens the stream for `target` and refreshes queries as events arrive; reopens it with
 * exponential backoff after an error. Returns the function that closes it for good.
 */
export function connectLiveEvents(
  queryClient: QueryClient,
  target: LiveTarget,
  options: LiveEventsOptions = {},
): () => void {
  const open =
    options.open ??
    ((url: string) =>
      new EventSource(url, { withCredentials: true }) as unknown as EventSourceLike);
  const initial = options.initialDelayMs ?? LIVE_INITIAL_DELAY_MS;
  const max = options.maxDelayMs ?? LIVE_MAX_DELAY_MS;
  let source: EventSourceLike | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  let hadGap = false;
  let stopped = false;

  const refresh = (filters: Refresh[]) => {
    for (const filter of filters) void queryClient.invalidateQueries(filter);
  };

  const connect = () => {
    timer = null;
    if (stopped) return;
    const current = open(liveEventsUrl(target));
    source = current;
    current.onopen = () => {
      failures = 0;
      if (hadGap) refresh(refreshAfterGap(target));
      hadGap = false;
    };
    current.onmessage = (event: MessageEvent) => {
      let hint: LiveHint;
      try {
        hint = JSON.parse(String(event.data)) as LiveHint;
      } catch {
        return;
      }
      if (hint?.type === 'activity' && typeof hint.kind === 'string')
        refresh(refreshesFor(hint, target));
    };
    current.onerror = () => {
      // The browser would retry on its own, but not after a refusal (401, 404): retry here, one
      // way for both, waiting longer each time.
      current.close();
      if (source !== current || stopped) return;
      source = null;
      hadGap = true;
      const delay = Math.min(initial * 2 ** failures, max);
      failures += 1;
      timer = setTimeout(connect, delay);
    };
  };

  connect();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    source?.close();
    source = null;
  };
}
