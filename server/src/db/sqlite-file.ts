import SqliteDatabase from 'better-sqlite3';

/** How long a connection waits for another process's lock before SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 10_000;

/** The part of a better-sqlite3 connection the journal-mode switch uses (tests pass a fake). */
export interface PragmaTarget {
  pragma(source: string): unknown;
}

/**
 * Opens Takes' SQLite file: write-ahead log, full sync, foreign keys, and a busy timeout set
 * before anything else touches the file.
 */
export function openSqliteFile(file: string): SqliteDatabase.Database {
  const sqlite = new SqliteDatabase(file, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  try {
    enableWal(sqlite);
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    // SQLite's own lower() folds ASCII only; FTS5's trigram index folds every letter. Queries that
    // must match as the index does (search's own-rows path) fold with this instead.
    sqlite.function('takes_lower', { deterministic: true }, (value: unknown) =>
      typeof value === 'string' ? value.toLowerCase() : value,
    );
    return sqlite;
  } catch (error) {
    sqlite.close();
    throw error;
  }
}

/**
 * Switches the file to write-ahead logging, retrying while another process holds it. Processes
 * opening a fresh file in the same instant each take a shared lock and then want an exclusive
 * one to switch it; SQLite answers one of them SQLITE_BUSY at once, without waiting the busy
 * timeout (it would otherwise deadlock), so "database is locked" ended a start-up now and then.
 */
export function enableWal(
  sqlite: PragmaTarget,
  { timeoutMs = SQLITE_BUSY_TIMEOUT_MS, sleep = sleepSync, now = Date.now } = {},
): void {
  const deadline = now() + timeoutMs;
  for (;;) {
    try {
      sqlite.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const busy = typeof code === 'string' && code.startsWith('SQLITE_BUSY');
      if (!busy || now() >= deadline) throw error;
      // A few milliseconds, different in each process, so they do not collide again.
      sleep(5 + Math.floor(Math.random() * 20));
    }
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the thread (start-up only: the connection is synchronous anyway). */
function sleepSync(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}
