import { PostgresAdapter, type Kysely } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/** The one place where column types differ between SQLite and PostgreSQL. */
export function columnTypes(db: Kysely<unknown>) {
  const postgres = dialectOf(db) === 'postgres';
  return {
    timestamp: postgres ? 'timestamptz' : 'text',
    json: postgres ? 'jsonb' : 'text',
    bigint: postgres ? 'bigint' : 'integer',
  } as const;
}

export function dialectOf(db: Kysely<unknown>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
