import {
  Migrator,
  SqliteAdapter,
  sql,
  type DatabaseIntrospector,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';
import { migrations } from './migrations/index';

/**
 * Brings the schema up to date and returns the names of the migrations it applied.
 *
 * On SQLite, Kysely's migration lock does nothing (it assumes one process), so two processes
 * started together would both run the same migration ("table already exists"). There the
 * whole run happens in one BEGIN IMMEDIATE transaction: SQLite's write lock serialises the
 * processes, and the second one finds the work done. (SQLite DDL is transactional, so a run
 * that fails leaves the schema as it was.) On PostgreSQL Kysely's own lock table serialises
 * the runs, and the caller holds Takes' start-up lock as well (withStartupLock).
 */
export async function migrateToLatest<DB>(db: Kysely<DB>): Promise<string[]> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return runMigrations(db);
  return db.connection().execute(async (connection) => {
    await beginImmediate(connection);
    try {
      const applied = await runMigrations(connection);
      await sql`commit`.execute(connection);
      return applied;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

/**
 * Takes' migrator for this database: its migrations, its tables in the connection's own schema,
 * and an introspector that looks at that schema only (see withSchemaIntrospection). Tests that
 * step through migrations use it too.
 */
export async function migratorOf<DB>(db: Kysely<DB>): Promise<Migrator> {
  const schema = await currentSchema(db);
  return new Migrator({
    db: schema ? withSchemaIntrospection(db, schema) : db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // Kysely looks for its own tables in every schema unless told which one: a database whose
    // other schema already has them (another app, or a parallel test) would hide ours.
    migrationTableSchema: schema,
  });
}

async function runMigrations<DB>(db: Kysely<DB>): Promise<string[]> {
  const migrator = await migratorOf(db);
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(`Migration ${failed ?? ''} failed: ${reason}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

// Waits for another process's migration run (each try waits the connection's busy_timeout).
async function beginImmediate<DB>(connection: Kysely<DB>): Promise<void> {
  for (;;) {
    try {
      await sql`begin immediate`.execute(connection);
      return;
    } catch (error) {
      // SQLITE_BUSY and its extended codes (a snapshot or a recovery under way) say "try again".
      if (!String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY')) throw error;
    }
  }
}

/** PostgreSQL's schema for new tables (the first of the search path); SQLite has none. */
async function currentSchema<DB>(db: Kysely<DB>): Promise<string | undefined> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}

/**
 * The database as the migrator sees it, with an introspector that looks at `schema` alone.
 * Kysely's PostgreSQL introspector reads every column of every schema and looks each schema up
 * by name (has_schema_privilege, pg_get_serial_sequence): a schema dropped meanwhile by someone
 * else (another app's, a parallel test's) fails the whole run with 'schema "…" does not exist',
 * and a database with many schemas makes every start-up slower. The migrator only asks which
 * schemas and which of its own tables exist.
 */
function withSchemaIntrospection<DB>(db: Kysely<DB>, schema: string): Kysely<DB> {
  const introspection: DatabaseIntrospector = {
    async getSchemas(): Promise<SchemaMetadata[]> {
      const { rows } = await sql<{ name: string }>`
        select nspname as name from pg_catalog.pg_namespace where nspname = ${schema}`.execute(db);
      return rows;
    },
    async getTables(): Promise<TableMetadata[]> {
      const { rows } = await sql<{ name: string }>`
        select c.relname as name from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v')`.execute(db);
      return rows.map(({ name }) => ({ name, schema, isView: false, columns: [] }));
    },
    async getMetadata() {
      return { tables: await this.getTables() };
    },
  };
  // Methods are bound to the real instance: Kysely keeps its state in private fields.
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}
