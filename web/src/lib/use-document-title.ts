import { useEffect } from 'react';

/** Sets `document.title` while the calling component is mounted, then restores the previous one. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    const previousTitle = document.title;
    document.title = title;
    return () => {
      document.title = previousTitle;
    };
  }, [title]);
}
