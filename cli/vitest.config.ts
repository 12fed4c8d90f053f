import { defineConfig } from 'vitest/config';

// The suite drives a real server (server/dist) through the real `takes` binary.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    fileParallelism: false,
  },
});
