// @ts-check
import os from 'node:os';
import path from 'node:path';
import { configDir } from '../credentials.js';
import { CliError, UsageError } from '../errors.js';
import { deliverAuthCode } from '../pending-login.js';
import { stringOption } from './command.js';
import { desktopScheme } from './link.js';
import { pullBranch } from './pull.js';

/** @import { Command } from './command.js' */

/** @type {Command} */
export const openCommand = {
  name: 'open',
  summary: 'Open a takes:// link (what `takes link register` has links run)',
  usage: `Usage: takes open URL [--dir DIR]

Does what a desktop link asks:
  takes://pull?repo=ID&branch=NAME   downloads the branch's bounces, as \`takes pull\` does,
                                     into DIR (else $TAKES_PULL_DIR, else ~/Music/Takes)
  takes://auth-callback?code=CODE    hands the code to the \`takes login\` waiting for it

The scheme is the server's (takes unless it was set up otherwise).

Options:
  --dir DIR  the folder to pull into`,
  options: { dir: { type: 'string' } },
  positionals: 1,
  async run(ctx, { values, positionals }) {
    const raw = positionals[0]?.trim();
    if (!raw) throw new UsageError('Which link? Give the takes:// address.', openCommand.usage);
    const link = parseLink(raw);
    const scheme = await desktopScheme(ctx);
    if (link.scheme !== scheme)
      throw new CliError(`Not a Takes link: ${raw} (Takes links start with ${scheme}://)`);

    if (link.action === 'pull') {
      const repo = link.params.get('repo')?.trim();
      if (!repo) throw new CliError(`This pull link names no repository: ${raw}`);
      const dir =
        stringOption(values, 'dir')?.trim() ||
        ctx.env.TAKES_PULL_DIR?.trim() ||
        path.join(ctx.env.HOME || os.homedir(), 'Music', 'Takes');
      await pullBranch(ctx, {
        repoRef: repo,
        branch: link.params.get('branch')?.trim() || undefined,
        dir,
        quality: 'original',
        latest: false,
      });
      return;
    }
    if (link.action === 'auth-callback') {
      const code = link.params.get('code')?.trim();
      if (!code) throw new CliError(`This sign-in link carries no code: ${raw}`);
      if (!(await deliverAuthCode(configDir(ctx.env), code)))
        throw new CliError(
          `No \`takes login\` is waiting for this sign-in. Run \`takes login\` and paste this code when asked: ${code}`,
        );
      ctx.print('Handed the sign-in code to the waiting `takes login`.');
      return;
    }
    throw new CliError(
      `Unknown Takes link "${link.action}": ${raw} (takes open knows pull and auth-callback)`,
    );
  },
};

/**
 * A link's scheme, action (`takes://pull?…` or `takes:pull?…`) and query, parsed as a URL
 * (never handed to a shell).
 * @param {string} raw
 */
function parseLink(raw) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`Not a link: ${raw}`);
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  const action = (url.host || url.pathname.replace(/^\/+/, '')).replace(/\/+$/, '').toLowerCase();
  // takes://pull/extra is no link takes knows either.
  const known = !url.host || url.pathname === '' || url.pathname === '/';
  return { scheme, action: known ? action : `${action}${url.pathname}`, params: url.searchParams };
}
