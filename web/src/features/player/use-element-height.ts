import { useCallback, useState } from 'react';

/**
 * A ref to put on an element and its rendered height in px, kept up to date as it resizes;
 * `fallback` until it has been measured (or where the browser has no ResizeObserver).
 */
export function useElementHeight(
  fallback: number,
): [(element: HTMLElement | null) => void, number] {
  const [height, setHeight] = useState<number | null>(null);
  const ref = useCallback((element: HTMLElement | null) => {
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const measured = element.getBoundingClientRect().height;
      setHeight(measured > 0 ? Math.ceil(measured) : null);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => {
      observer.disconnect();
      setHeight(null);
    };
  }, []);
  return [ref, height ?? fallback];
}
