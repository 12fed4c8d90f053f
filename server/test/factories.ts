import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, ReposTable, UsersTable } from '../src/db/schema';
import { testDialect } from './test-database';

/**
 * Rows inserted directly, for tests that are not about the HTTP call that would make them
 * (as Outline's server/test/factories.ts). Each builder takes overrides and returns the row.
 */

export async function buildUser(
  db: Kysely<Database>,
  overrides: Partial<UsersTable> = {},
): Promise<UsersTable> {
  const now = new Date().toISOString();
  const id = overrides.id ?? randomUUID();
  const row: UsersTable = {
    id,
    name: 'Test Person',
    email: `${id}@example.test`,
    email_verified: testDialect() === 'postgres' ? true : 1,
    image: null,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
  await db.insertInto('users').values(row).execute();
  return row;
}

export async function buildRepo(
  db: Kysely<Database>,
  ownerId: string,
  overrides: Partial<ReposTable> = {},
): Promise<ReposTable> {
  const now = new Date().toISOString();
  const name = overrides.name ?? `Repo ${randomUUID().slice(0, 8)}`;
  const row: ReposTable = {
    id: randomUUID(),
    owner_id: ownerId,
    name,
    name_key: name.toLowerCase(),
    cover_key: null,
    cover_type: null,
    created_at: now,
    updated_at: now,
    activity_at: now,
    ...overrides,
  };
  await db.insertInto('repos').values(row).execute();
  return row;
}
