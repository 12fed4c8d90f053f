import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Vitest runs without globals, so Testing Library cannot unmount on its own: without this a
// component left mounted (a playing player's time sampler) keeps its timers running after the
// file's jsdom window is gone, and the run fails on "window is not defined".
afterEach(() => {
  cleanup();
});
