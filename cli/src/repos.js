// @ts-check
import { endpoints } from '@takes/contract/runtime';
import { CliError } from './errors.js';

/** @import { Repository } from '@takes/contract' */
/** @import { Api } from './api.js' */

/**
 * @param {Api} api
 * @returns {Promise<Repository[]>} newest activity first
 */
export async function listRepos(api) {
  const body = await api.call(endpoints.audioGit.listRepositories);
  return body.data;
}

/**
 * A repository by id, or by name (any case).
 * @param {Api} api
 * @param {string} ref
 * @returns {Promise<Repository>}
 */
export async function resolveRepo(api, ref) {
  const repos = await listRepos(api);
  const byId = repos.find((repo) => repo.id === ref);
  if (byId) return byId;
  const wanted = ref.trim().toLowerCase();
  const byName = repos.find((repo) => repo.name.toLowerCase() === wanted);
  if (byName) return byName;
  throw new CliError(
    `No repository named "${ref}". Create it with \`takes repo create ${quoteArg(ref)}\`.`,
  );
}

/**
 * Quotes a word for a shell command line when it needs it.
 * @param {string} value
 */
export function quoteArg(value) {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
