import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * Named prepared statements for every pooled PostgreSQL connection.
 *
 * Kysely sends each query as text with parameters, which `pg` runs as an unnamed statement:
 * PostgreSQL parses, analyses and plans it again every time. For the cheap queries Takes makes on
 * every request that was most of their cost (a feed query executed in 0.3 ms and was planned in
 * 1.3 ms). Here a query text seen a second time in this process runs as a named statement,
 * named by a hash of its text, so each connection parses it once; after five runs PostgreSQL may
 * keep a generic plan and stop planning it at all (its `plan_cache_mode`).
 *
 * Bounded: a connection keeps at most MAX_PER_CONNECTION statements (further texts run unnamed),
 * and texts seen only once (ad-hoc lists of ids) are never named, nor those marked
 * PLAN_EACH_TIME. Schema changes: any DDL sent
 * through a wrapped connection in this process makes every connection drop its statements
 * (`DEALLOCATE ALL`, outside a transaction) before it prepares again, so a statement is never
 * used across a migration. Poolers in transaction mode (PgBouncer before 1.21) cannot keep named
 * statements: turn them off there with DATABASE_PREPARED_STATEMENTS=false.
 */

export const MAX_PER_CONNECTION = 1000;
const MAX_TEXTS_REMEMBERED = 5000;

const DDL = /^\s*(create|alter|drop|truncate|comment|grant|revoke|reindex)\b/i;
const BEGIN = /^\s*(begin|start\s+transaction)\b/i;
const END = /^\s*(commit|rollback|end)\s*$/i;
/**
 * A statement whose best plan depends on its values (a LIKE pattern: a generic plan cannot tell a
 * rare word, which the trigram index finds at once, from a common one) carries this comment and
 * is planned with its values every time: with a generic plan a search miss on a big account fell
 * from 608 to 213 req/s.
 */
export const PLAN_EACH_TIME = '/* takes: plan each time */';
const NOT_PREPARABLE =
  /^\s*(begin|start|commit|rollback|end|savepoint|release|set|reset|deallocate|listen|unlisten|notify|vacuum|analyze|lock)\b/i;

/** Bumped by DDL anywhere in this process: connections prepared before it start afresh. */
let schemaGeneration = 0;

/** Text → statement name, for texts seen in this process (oldest forgotten first). */
const seen = new Map<string, { name: string; count: number }>();

interface ConnectionState {
  generation: number;
  inTransaction: boolean;
  prepared: Set<string>;
}

const states = new WeakMap<pg.Client, ConnectionState>();

/** How many statements a connection has named (for tests). */
export function preparedCount(client: pg.Client): number {
  return states.get(client)?.prepared.size ?? 0;
}

function nameOf(text: string): string | undefined {
  let entry = seen.get(text);
  if (!entry) {
    entry = {
      name: `takes_${createHash('sha1').update(text).digest('hex').slice(0, 32)}`,
      count: 0,
    };
    seen.set(text, entry);
    if (seen.size > MAX_TEXTS_REMEMBERED) seen.delete(seen.keys().next().value as string);
  }
  entry.count++;
  return entry.count >= 2 ? entry.name : undefined;
}

type Connection = { parsedStatements: Record<string, string> };

/** Makes every client of `pool` run repeated query texts as named prepared statements. */
export function usePreparedStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const state: ConnectionState = {
      generation: schemaGeneration,
      inTransaction: false,
      prepared: new Set(),
    };
    states.set(client, state);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const connection = (client as unknown as { connection: Connection }).connection;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
      const [text, values] = args;
      if (
        typeof text !== 'string' ||
        args.length > 2 ||
        (values !== undefined && !Array.isArray(values))
      )
        return query(...args);
      if (BEGIN.test(text)) state.inTransaction = true;
      else if (END.test(text)) state.inTransaction = false;
      if (DDL.test(text)) {
        schemaGeneration++;
        return query(...args);
      }
      if (state.generation !== schemaGeneration) {
        // Statements this connection prepared may describe the old schema. Inside a transaction
        // (a migration's own) run unnamed; outside, drop them all first.
        if (state.inTransaction) return query(...args);
        if (state.prepared.size > 0) {
          void (query('deallocate all') as Promise<unknown>).catch(() => undefined);
          for (const name of state.prepared) delete connection.parsedStatements[name];
          state.prepared.clear();
        }
        state.generation = schemaGeneration;
      }
      if (NOT_PREPARABLE.test(text) || text.includes(PLAN_EACH_TIME)) return query(...args);
      const name = nameOf(text);
      if (!name) return query(...args);
      if (!state.prepared.has(name)) {
        if (state.prepared.size >= MAX_PER_CONNECTION) return query(...args);
        state.prepared.add(name);
      }
      return query({ name, text, values });
    };
  });
}
