import { defineConfig } from 'vitest/config';

// `npm run test:scale`: real clusters of serve and worker processes on PostgreSQL, S3 (s3rver)
// and pg-boss. They need a PostgreSQL server: TEST_DATABASE_URL, or the local one on 5432.
export default defineConfig({
  test: {
    name: 'scale',
    include: ['src/**/*.scale.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    // Each file starts several processes on a 2-core machine: one file at a time.
    fileParallelism: false,
    env: {
      TEST_DB: 'postgres',
      TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
  },
});
