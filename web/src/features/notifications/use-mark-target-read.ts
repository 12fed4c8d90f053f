import { useEffect, useRef } from 'react';
import { useMarkRead } from './notifications-api';

/**
 * Reading a target (a version page) marks its notifications read: once per path, when `ready`
 * (the page has loaded). Failures are ignored: the notifications simply stay unread.
 */
export function useMarkTargetRead(href: string, ready: boolean) {
  const { mutate } = useMarkRead();
  const marked = useRef<string | null>(null);
  useEffect(() => {
    if (!ready || marked.current === href) return;
    marked.current = href;
    mutate({ href }, { onError: () => undefined });
  }, [href, ready, mutate]);
}
