import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../features/auth/use-auth';
import type { LiveEventsOptions } from './live-events-connection';

export type { EventSourceLike, LiveEventsOptions } from './live-events-connection';

/**
 * Live updates in the app: the tab's one Server-Sent Events stream (see
 * live-events-connection.ts), opened for the signed-in person or for the share page open. The
 * code that connects and knows the queries loads only when a stream is wanted, so the landing
 * page of a signed-out visitor does not download it.
 */

// The share page's link, while one is open: the tab's stream is then that link's.
let currentLink: string | null = null;
const linkListeners = new Set<() => void>();
function setLink(hash: string | null) {
  currentLink = hash;
  for (const listener of linkListeners) listener();
}
function subscribeLink(listener: () => void) {
  linkListeners.add(listener);
  return () => linkListeners.delete(listener);
}

/** A share page asks for its link's comments to arrive live (the tab's one stream follows it). */
export function useShareLiveEvents(hash: string): void {
  useEffect(() => {
    if (!hash) return;
    setLink(hash);
    return () => {
      if (currentLink === hash) setLink(null);
    };
  }, [hash]);
}

/**
 * Mounted once in the layout: the tab's one stream, for the share page open (with its key), or
 * for the signed-in person, or none.
 */
export function LiveEvents({ options }: { options?: LiveEventsOptions }): null {
  const queryClient = useQueryClient();
  const auth = useAuth();
  const link = useSyncExternalStore(subscribeLink, () => currentLink);
  const signedInAs = auth.status === 'signed-in' ? auth.user.id : null;
  useEffect(() => {
    if (typeof EventSource === 'undefined' && !options?.open) return;
    const target = link
      ? ({ kind: 'link', hash: link } as const)
      : signedInAs
        ? ({ kind: 'user' } as const)
        : null;
    if (!target) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    void import('./live-events-connection').then(({ connectLiveEvents }) => {
      if (!cancelled) stop = connectLiveEvents(queryClient, target, options);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [queryClient, link, signedInAs, options]);
  return null;
}
