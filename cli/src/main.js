// @ts-check
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { commentsImportCommand } from './commands/comments.js';
import { commitCommand } from './commands/commit.js';
import { loginCommand, logoutCommand, whoamiCommand } from './commands/login.js';
import { linkRegisterCommand, linkUnregisterCommand } from './commands/link.js';
import { logCommand } from './commands/log.js';
import { markersCommand } from './commands/markers.js';
import { openCommand } from './commands/open.js';
import { pullCommand } from './commands/pull.js';
import { repoCreateCommand, repoListCommand } from './commands/repo.js';
import { watchCommand } from './commands/watch.js';
import { Context } from './context.js';
import { configDir, CredentialStore, resolveServer } from './credentials.js';
import { CliError, UsageError } from './errors.js';

/** @import { Command, OptionsConfig, ParsedArgs } from './commands/command.js' */

/** @type {Command[]} */
const COMMANDS = [
  loginCommand,
  logoutCommand,
  whoamiCommand,
  repoCreateCommand,
  repoListCommand,
  commitCommand,
  logCommand,
  pullCommand,
  markersCommand,
  commentsImportCommand,
  linkRegisterCommand,
  linkUnregisterCommand,
  openCommand,
  watchCommand,
];

/** @type {OptionsConfig} */
const SHARED_OPTIONS = {
  server: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

const GENERAL_USAGE = `Usage: takes COMMAND [options]

The command-line client for Takes.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(15)} ${c.summary}`).join('\n')}

Options for every command:
  --server URL  the Takes server (else $TAKES_SERVER, the last one signed in to,
                or http://localhost:8080)
  -h, --help    show a command's usage

Credentials are kept in $TAKES_CONFIG_DIR, $XDG_CONFIG_HOME/takes or ~/.config/takes.
Run \`takes COMMAND --help\` for a command's options.`;

/**
 * @typedef {object} Io
 * @property {string[]} argv the arguments after `takes`
 * @property {NodeJS.ProcessEnv} env
 * @property {NodeJS.WriteStream} stdout
 * @property {NodeJS.WriteStream} stderr
 */

/**
 * Runs one `takes` command line.
 * @param {Io} io
 * @returns {Promise<number>} the exit code: 0 done, 1 failed, 2 wrong usage
 */
export async function main(io) {
  try {
    await dispatch(io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`takes: ${error.message}\n\n${error.usage}\n`);
      return 2;
    }
    if (error instanceof CliError) {
      io.stderr.write(`takes: ${error.message}\n`);
      return 1;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr.write(`takes: Unexpected error: ${detail}\n`);
    return 1;
  }
}

/** @param {Io} io */
async function dispatch(io) {
  const [first, second] = io.argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') {
    const topic = first === 'help' ? io.argv.slice(1).join(' ') : '';
    const command = COMMANDS.find((c) => c.name === topic);
    io.stdout.write(`${command ? command.usage : GENERAL_USAGE}\n`);
    return;
  }
  if (first === '--version' || first === '-v') {
    io.stdout.write(`${version()}\n`);
    return;
  }

  const twoWords = `${first} ${second ?? ''}`;
  const command =
    COMMANDS.find((c) => c.name === twoWords) ?? COMMANDS.find((c) => c.name === first);
  if (!command) {
    const group = COMMANDS.filter((c) => c.name.startsWith(`${first} `));
    if (group.length > 0) {
      if (second === '--help' || second === '-h') {
        io.stdout.write(`${groupUsage(first, group)}\n`);
        return;
      }
      if (second === undefined)
        throw new UsageError(`Which ${first} command?`, groupUsage(first, group));
      throw new UsageError(`Unknown command "${first} ${second}".`, groupUsage(first, group));
    }
    throw new UsageError(`Unknown command "${first}".`, GENERAL_USAGE);
  }

  const rest = io.argv.slice(command.name.split(' ').length);
  const args = parseCommandLine(command, rest);
  if (args.values.help) {
    io.stdout.write(`${command.usage}\n`);
    return;
  }

  const store = new CredentialStore(configDir(io.env));
  const saved = store.read();
  const serverFlag = typeof args.values.server === 'string' ? args.values.server : undefined;
  const server = resolveServer(serverFlag, io.env, saved);
  if (!server)
    throw new UsageError(
      `Not a server address: ${serverFlag ?? io.env.TAKES_SERVER ?? ''}`,
      command.usage,
    );
  const ctx = new Context({
    env: io.env,
    stdout: io.stdout,
    stderr: io.stderr,
    store,
    server,
    saved,
  });
  await command.run(ctx, args);
}

/**
 * @param {Command} command
 * @param {string[]} argv
 * @returns {ParsedArgs}
 */
function parseCommandLine(command, argv) {
  /** @type {ParsedArgs} */
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...SHARED_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Node's wording goes on about '--' for positionals; the option is what matters here.
    const unknown = /^Unknown option '([^']+)'/.exec(message);
    throw new UsageError(unknown ? `Unknown option '${unknown[1]}'.` : message, command.usage);
  }
  const allowed = command.positionals ?? 0;
  if (!parsed.values.help && parsed.positionals.length > allowed) {
    const extra = parsed.positionals[allowed] ?? '';
    throw new UsageError(`Unexpected argument "${extra}".`, command.usage);
  }
  return { values: parsed.values, positionals: parsed.positionals };
}

/**
 * @param {string} group
 * @param {Command[]} commands
 */
function groupUsage(group, commands) {
  return `Usage: takes ${group} COMMAND

Commands:
${commands.map((c) => `  ${c.name.padEnd(15)} ${c.summary}`).join('\n')}`;
}

function version() {
  const file = new URL('../package.json', import.meta.url);
  const pkg = /** @type {{ version?: unknown }} */ (JSON.parse(fs.readFileSync(file, 'utf8')));
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}
