import { useCallback, useState } from 'react';

/**
 * A ref to put on an element and its rendered height in px, kept up to date as it resizes;
 * `fallback` until it has been measured (or where the browser has no ResizeObserver).
 *
 * The first height comes from the observer's first callback, which the browser delivers after
 * its own layout of the frame: measuring in the ref callback instead forced a layout in the
 * middle of React's commit (about 75 ms on a throttled phone on the project page).
 */
export function useElementHeight(
  fallback: number,
): [(element: HTMLElement | null) => void, number] {
  const [height, setHeight] = useState<number | null>(null);
  const ref = useCallback((element: HTMLElement | null) => {
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const measured = element.getBoundingClientRect().height;
      setHeight(measured > 0 ? Math.ceil(measured) : null);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      setHeight(null);
    };
  }, []);
  return [ref, height ?? fallback];
}
