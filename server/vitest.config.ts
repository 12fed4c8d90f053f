import { defineConfig } from 'vitest/config';

// The database-backed suite (*.db.test.ts) runs once per dialect: SQLite always,
// PostgreSQL when TEST_DATABASE_URL is set. Everything else runs once. A `*.pg.db.test.ts` is
// about PostgreSQL itself (a server restarted under Takes) and runs on PostgreSQL only.
const postgres = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true as const,
        test: { name: 'unit', include: ['src/**/*.test.ts'], exclude: ['src/**/*.db.test.ts'] },
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
