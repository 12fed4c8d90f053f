import type { Migration } from 'kysely';
import * as m0001 from './0001-jobs';
import * as m0002 from './0002-accounts';

/** Every migration, in order. Names sort lexically; never rename or edit a shipped one. */
export const migrations: Record<string, Migration> = {
  '0001-jobs': m0001,
  '0002-accounts': m0002,
};
