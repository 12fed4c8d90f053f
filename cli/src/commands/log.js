// @ts-check
import { endpoints } from '@takes/contract/runtime';
import { UsageError } from '../errors.js';
import { formatDuration, formatWhen, shortSha } from '../format.js';
import { resolveRepo } from '../repos.js';
import { requiredOption, stringOption } from './command.js';

/** @import { Bounce, TimelineCommit } from '@takes/contract' */
/** @import { Command } from './command.js' */

/** @type {Command} */
export const logCommand = {
  name: 'log',
  summary: "List a branch's commits and their bounces",
  usage: `Usage: takes log --repo REPO [--branch BRANCH] [--limit N] [--json]

Lists the commits of BRANCH, newest first, each with its bounces.

Options:
  --repo REPO      repository name or id
  --branch BRANCH  branch (default: the repository's default branch)
  --limit N        at most N commits (default 50)
  --json           print the commits, each with its bounces, as JSON`,
  options: {
    repo: { type: 'string' },
    branch: { type: 'string' },
    limit: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(ctx, { values }) {
    const repoRef = requiredOption(logCommand, values, 'repo', 'A repository is required (--repo)');
    const limitText = stringOption(values, 'limit');
    const limit = limitText === undefined ? 50 : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200)
      throw new UsageError('--limit must be a whole number from 1 to 200', logCommand.usage);

    const api = ctx.api();
    const repo = await resolveRepo(api, repoRef);
    const branch = stringOption(values, 'branch')?.trim() || repo.default_branch;

    /** @type {TimelineCommit[]} */
    let commits = [];
    /** @type {Bounce[]} */
    let bounces = [];
    // A repository without branches has no commits to ask for.
    if (branch) {
      const params = { id: repo.id };
      const [commitsBody, bouncesBody] = await Promise.all([
        api.call(endpoints.repos.listRepoCommits, { params, query: { branch, limit } }),
        api.call(endpoints.repos.listRepoBounces, { params, query: { branch } }),
      ]);
      commits = commitsBody.commits;
      bounces = bouncesBody.bounces;
    }

    /** @type {Map<string, Bounce[]>} */
    const bySha = new Map();
    for (const bounce of bounces) {
      const list = bySha.get(bounce.commit_sha) ?? [];
      list.push(bounce);
      bySha.set(bounce.commit_sha, list);
    }

    if (values.json) {
      const withBounces = commits.map((commit) => ({
        ...commit,
        bounces: bySha.get(commit.sha) ?? [],
      }));
      ctx.print(JSON.stringify(withBounces, null, 2));
      return;
    }
    if (commits.length === 0) {
      ctx.print('No commits yet.');
      return;
    }
    for (const commit of commits) {
      const when = formatWhen(commit.created_at);
      ctx.print(`${shortSha(commit.sha)}  ${when.padEnd(14)}  ${commit.message ?? '(no message)'}`);
      for (const bounce of bySha.get(commit.sha) ?? []) {
        const failed = bounce.status === 'failed' && bounce.error ? `: ${bounce.error}` : '';
        ctx.print(
          `    ♪ ${bounce.title}  ${formatDuration(bounce.duration)}  ${bounce.status}${failed}`,
        );
      }
    }
  },
};
