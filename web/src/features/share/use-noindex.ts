import { useEffect } from 'react';

/**
 * Adds `<meta name="robots" content="noindex">` while the calling page is mounted (and `enabled`:
 * a Public project's page drops it when its owner lists it in search engines).
 */
export function useNoIndex(enabled = true): void {
  useEffect(() => {
    if (!enabled) return;
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, [enabled]);
}
