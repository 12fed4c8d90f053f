import fs from 'node:fs';
import path from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config';
import type { Dialect } from './dialect-sql';
import { usePreparedStatements } from './pg-prepared';
import { openSqliteFile } from './sqlite-file';
import type { Database } from './schema';

export interface DatabaseHandle {
  db: Kysely<Database>;
  /**
   * The same database for better-auth, which wants Date objects for timestamps. On SQLite it
   * is the same instance (better-auth converts itself); on PostgreSQL a small second pool
   * with the driver's default type parsing.
   */
  authDb: Kysely<Database>;
  dialect: Dialect;
  ping(): Promise<void>;
  destroy(): Promise<void>;
}

const TIMESTAMPTZ_OID = 1184;
const TIMESTAMP_OID = 1114;
const INT8_OID = 20;

export interface OpenDatabaseOptions {
  /** PostgreSQL only: the schema every connection uses (tests give each test its own). */
  searchPath?: string;
  poolSize?: number;
  /** Told when an idle pooled connection dies (the server restarted); the pool reconnects on its own. */
  onConnectionError?: (error: Error) => void;
}

export function openDatabase(
  config: DatabaseConfig,
  options: OpenDatabaseOptions = {},
): DatabaseHandle {
  if (config.dialect === 'postgres') {
    const pool = new pg.Pool({
      connectionString: config.url,
      max: options.poolSize ?? 10,
      options: `-c TimeZone=UTC${options.searchPath ? ` -c search_path=${options.searchPath}` : ''}`,
      types: { getTypeParser: pgTypeParser },
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const authPool = new pg.Pool({
      connectionString: config.url,
      max: Math.max(Math.floor((options.poolSize ?? 10) / 2), 2),
      options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined,
    });
    const authDb = new Kysely<Database>({ dialect: new PostgresDialect({ pool: authPool }) });
    // An idle client cut by the server (a restart, a failover) is an 'error' event on its pool:
    // without a listener Node ends the process. The pool has already dropped the client and
    // opens a new connection for the next query.
    // A client checked out of the pool (held by a transaction between its statements) has no pool
    // listener: its own listener keeps the process up, its next statement fails (the transaction
    // rolls back with an error the caller sees) and the pool discards it when it is released.
    const onError = options.onConnectionError ?? (() => undefined);
    if (config.preparedStatements !== false) {
      usePreparedStatements(pool);
      usePreparedStatements(authPool);
    }
    for (const each of [pool, authPool]) {
      each.on('error', onError);
      each.on('connect', (client) => client.on('error', onError));
    }
    return {
      db,
      authDb,
      dialect: 'postgres',
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      destroy: async () => {
        await Promise.all([db.destroy(), authDb.destroy()]);
      },
    };
  }

  fs.mkdirSync(path.dirname(config.file), { recursive: true });
  const sqlite = openSqliteFile(config.file);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
  return {
    db,
    authDb: db,
    dialect: 'sqlite',
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    destroy: () => db.destroy(),
  };
}

/** How many prepared statements a SQLite connection keeps (Kysely asks by SQL text). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The connection as Kysely sees it, with its prepared statements kept by SQL text: every query
 * was prepared again on each call (about a tenth of a cheap request's time). A statement still
 * iterating (a stream) is busy: then a fresh one is made for the caller. Least recently used
 * statements are dropped past STATEMENT_CACHE_SIZE. SQLite re-prepares a kept statement itself
 * when the schema changes.
 */
export function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = (source: string) => {
    const kept = cache.get(source);
    if (kept && !kept.busy) {
      cache.delete(source);
      cache.set(source, kept);
      return kept;
    }
    const made = sqlite.prepare(source);
    if (kept) return made;
    cache.set(source, made);
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    return made;
  };
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}

// Timestamps come back as ISO strings and counts as numbers, the same as on SQLite.
function pgTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
  if (oid === TIMESTAMPTZ_OID || oid === TIMESTAMP_OID) {
    return parsePgTimestamp;
  }
  if (oid === INT8_OID) return (value: string) => Number(value);
  return pg.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown;
}

const UTC_TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.(\d{1,6}))?\+00$/;

/**
 * PostgreSQL prints '2026-11-21 20:09:20.123+00'; the same instant in ISO form. Connections
 * run in UTC, so the common case is rewritten as text (a Date per value cost about 1 µs: 0.5 ms
 * for a dashboard page of projects and branches); other offsets and forms go through Date.
 */
export function parsePgTimestamp(value: string): string {
  const utc = UTC_TIMESTAMP.exec(value);
  if (utc) {
    const millis = utc[1] === undefined ? '000' : (utc[1] + '00').slice(0, 3);
    return `${value.slice(0, 10)}T${value.slice(11, 19)}.${millis}Z`;
  }
  const iso = value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/**
 * Runs `work` while holding Takes' start-up lock, so processes started at the same moment
 * (several `serve`, `worker`, `migrate`) migrate and create their job queues one after
 * another. On PostgreSQL it is a session advisory lock on one pooled connection, keyed by the
 * schema Takes lives in; PostgreSQL lets it go by itself if the process dies. SQLite needs
 * none: its writes are serialised by the file lock already.
 */
export async function withStartupLock<T>(
  database: Pick<DatabaseHandle, 'db' | 'dialect'>,
  work: () => Promise<T>,
  onWait?: () => void,
): Promise<T> {
  if (database.dialect !== 'postgres') return work();
  const key = sql`hashtextextended('takes.startup.' || current_schema(), 0)`;
  return database.db.connection().execute(async (connection) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_lock(${key}) as locked`.execute(connection);
    if (!rows[0]?.locked) {
      onWait?.();
      await sql`select pg_advisory_lock(${key})`.execute(connection);
    }
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(connection);
    }
  });
}
