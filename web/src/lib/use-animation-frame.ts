import { useEffect, useRef } from 'react';

/** Calls `frame` on every animation frame while mounted (the latest `frame`, without restarting). */
export function useAnimationFrame(frame: () => void) {
  const frameRef = useRef(frame);
  useEffect(() => {
    frameRef.current = frame;
  });
  useEffect(() => {
    let handle = requestAnimationFrame(function tick() {
      frameRef.current();
      handle = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(handle);
  }, []);
}
