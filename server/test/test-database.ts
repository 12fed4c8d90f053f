import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { DatabaseConfig } from '../src/config';
import { openDatabase, type DatabaseHandle } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';

export interface TestDatabase extends DatabaseHandle {
  /** How another process (a worker under test) opens this same database. */
  config: DatabaseConfig;
  searchPath: string | undefined;
  cleanup(): Promise<void>;
}

/** Which dialect this test run uses: the vitest project sets TEST_DB. */
export function testDialect(): 'sqlite' | 'postgres' {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
}

/**
 * A clean, migrated database for one test: a new SQLite file, or a new PostgreSQL
 * schema on TEST_DATABASE_URL that is dropped afterwards.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDialect() === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL must be set for the postgres test project');
    const schema = `t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    await adminQuery(url, `create schema ${schema}`);
    const config: DatabaseConfig = { dialect: 'postgres', url };
    const handle = openDatabase(config, { searchPath: schema, poolSize: 4 });
    await migrateToLatest(handle.db);
    return {
      ...handle,
      config,
      searchPath: schema,
      cleanup: async () => {
        await handle.destroy();
        // Also the schema a pg-boss queue under test may have made beside it.
        await adminQuery(
          url,
          `drop schema if exists ${schema} cascade; drop schema if exists ${schema}_boss cascade`,
        );
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-db-'));
  const config: DatabaseConfig = { dialect: 'sqlite', file: path.join(dir, 'test.sqlite') };
  const handle = openDatabase(config);
  await migrateToLatest(handle.db);
  return {
    ...handle,
    config,
    searchPath: undefined,
    cleanup: async () => {
      await handle.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One statement on its own connection (creating or dropping a schema or database). */
export async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
