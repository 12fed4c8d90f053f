import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database';

/**
 * The database server cuts a connection (a restart, a failover, an administrator) while a
 * transaction holds it between two statements: that transaction fails, the process stays up and
 * the pool serves the next query on a new connection.
 */
describe('a connection cut while a transaction holds it', () => {
  it('fails that transaction, keeps the process up, and the pool goes on', async () => {
    const url = process.env.TEST_DATABASE_URL ?? '';
    const cut: Error[] = [];
    const handle = openDatabase(
      { dialect: 'postgres', url },
      { onConnectionError: (e) => cut.push(e) },
    );
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const transaction = handle.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
        // The server's goodbye arrives while no statement runs on this connection.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await sql`select 1`.execute(trx);
      });
      await expect(transaction).rejects.toThrow();
      expect(cut.map((e) => e.message)).toContain(
        'terminating connection due to administrator command',
      );
      const { rows } = await sql<{ ok: number }>`select 1 as ok`.execute(handle.db);
      expect(rows).toEqual([{ ok: 1 }]);
    } finally {
      await admin.end();
      await handle.destroy();
    }
  });
});
