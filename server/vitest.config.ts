import { defineConfig } from 'vitest/config';

// The database-backed suite (*.db.test.ts) runs once per dialect: SQLite always,
// PostgreSQL when TEST_DATABASE_URL is set; *.pg.db.test.ts (pg-boss, LISTEN/NOTIFY) only on
// PostgreSQL. Everything else runs once.
const postgres = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // Two files at a time on a 2-core machine (vitest's default is cores - 1 = 1): most files
    // wait on ffmpeg, child processes and timers, so the suite takes 9 minutes instead of 15.
    maxWorkers: 2,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true as const,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          exclude: ['src/**/*.db.test.ts', 'src/**/*.scale.test.ts'],
        },
      },
      {
        extends: true as const,
        test: {
          name: 'sqlite',
          include: ['src/**/*.db.test.ts'],
          exclude: ['src/**/*.pg.db.test.ts'],
          env: { TEST_DB: 'sqlite' },
        },
      },
      ...(postgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['src/**/*.db.test.ts'],
                env: { TEST_DB: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
