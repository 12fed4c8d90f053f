import { sql, type RawBuilder } from 'kysely';

/**
 * The condition that a link's owner has not been disabled with their links ('Disable' without
 * keeping them): `owner` is the SQL of the owner's id. The link modules add it to the one query
 * that opens a link by its key, so such a link answers as an unknown one (404).
 */
export function ownerLinksLive(owner: RawBuilder<string>): RawBuilder<boolean> {
  return sql<boolean>`not exists (select 1 from user_controls where user_controls.user_id = ${owner} and user_controls.disabled_at is not null and user_controls.links_disabled = 1)`;
}

/**
 * The condition that an account has not been disabled: for a credential other than a session or
 * a desktop token (both ended on 'Disable'), such as a player app's key, checked where it is read.
 */
export function accountLive(userId: RawBuilder<string>): RawBuilder<boolean> {
  return sql<boolean>`not exists (select 1 from user_controls where user_controls.user_id = ${userId} and user_controls.disabled_at is not null)`;
}
