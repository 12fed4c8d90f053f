// @ts-check
import { endpoints } from '@takes/contract/runtime';
import { UsageError } from '../errors.js';
import { formatWhen } from '../format.js';
import { listRepos } from '../repos.js';

/** @import { Repository } from '@takes/contract' */
/** @import { Command } from './command.js' */

/** @type {Command} */
export const repoCreateCommand = {
  name: 'repo create',
  summary: 'Create a repository',
  usage: `Usage: takes repo create NAME

Creates a repository (it has no branches until the first commit).`,
  options: {},
  positionals: 1,
  async run(ctx, { positionals }) {
    const name = positionals[0]?.trim();
    if (!name) throw new UsageError('A repository name is required', repoCreateCommand.usage);
    const { repo } = await ctx.api().call(endpoints.repos.createRepo, { body: { name } });
    ctx.print(`Created repository ${repo.name} (${repo.id})`);
  },
};

/** @type {Command} */
export const repoListCommand = {
  name: 'repo list',
  summary: 'List your repositories',
  usage: `Usage: takes repo list [--json]

Lists your repositories, most recently active first.

Options:
  --json  print the repositories as JSON`,
  options: { json: { type: 'boolean' } },
  async run(ctx, { values }) {
    const repos = await listRepos(ctx.api());
    if (values.json) {
      ctx.print(JSON.stringify(repos, null, 2));
      return;
    }
    if (repos.length === 0) {
      ctx.print('No repositories yet. Create one with `takes repo create NAME`.');
      return;
    }
    const width = Math.max(...repos.map((repo) => repo.name.length));
    for (const repo of repos) {
      const counts = `${plural(repo.patch_count, 'commit')}, ${plural(repo.bounce_count, 'bounce')}`;
      ctx.print(
        `${repo.name.padEnd(width)}  ${repo.id}  ${counts}  ${formatWhen(repo.last_activity_at)}`,
      );
    }
  },
};

/**
 * @param {number} n
 * @param {string} word
 */
function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
