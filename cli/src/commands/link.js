// @ts-check
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { endpoints } from '@takes/contract/runtime';
import { CliError } from '../errors.js';
import { callServer, serverClient } from '../http.js';

/** @import { Context } from '../context.js' */
/** @import { Command } from './command.js' */

export const DESKTOP_FILE = 'takes-url.desktop';
export const DEFAULT_SCHEME = 'takes';
/** What the server's DESKTOP_SCHEME may be; anything else is never written anywhere. */
const SCHEME = /^[a-z][a-z0-9+.-]*$/;
const MAC_APP = 'Takes Links.app';
const LSREGISTER =
  '/System/Library/Frameworks/CoreServices.framework/Frameworks/LaunchServices.framework/Support/lsregister';

/** @type {Command} */
export const linkRegisterCommand = {
  name: 'link register',
  summary: 'Open takes:// links (pull, sign-in) with this CLI',
  usage: `Usage: takes link register [--server URL]

Makes this CLI the handler of the server's desktop links (takes://…) for you: a link that
pulls a repository downloads it (\`takes open\`), and a sign-in link finishes \`takes login\`.
On Linux this writes $XDG_DATA_HOME/applications/${DESKTOP_FILE} and makes it the default with
xdg-mime (from xdg-utils); on macOS and Windows it prints the steps to do it.`,
  options: {},
  async run(ctx) {
    const scheme = await desktopScheme(ctx);
    const command = handlerCommand();
    if (process.platform === 'darwin') {
      ctx.print(macRegisterSteps(scheme, command));
      return;
    }
    if (process.platform === 'win32') {
      ctx.print(windowsRegisterSteps(scheme, command));
      return;
    }
    const xdgMime = findExecutable('xdg-mime', ctx.env);
    if (!xdgMime)
      throw new CliError(
        'xdg-mime was not found. Install xdg-utils (e.g. `sudo apt install xdg-utils`) and run `takes link register` again.',
      );
    const dir = path.join(dataHome(ctx.env), 'applications');
    const file = path.join(dir, DESKTOP_FILE);
    fs.mkdirSync(dir, { recursive: true });
    writeAtomically(file, desktopEntry(scheme, command));
    const type = `x-scheme-handler/${scheme}`;
    await run(xdgMime, ['default', DESKTOP_FILE, type], ctx.env);
    await updateDesktopDatabase(ctx, dir);
    ctx.print(`Wrote ${file}`);
    ctx.print(`${scheme}:// links now open with: ${command.join(' ')} open URL`);
    const current = (await run(xdgMime, ['query', 'default', type], ctx.env)).trim();
    if (current !== DESKTOP_FILE)
      ctx.note(
        `Note: xdg-mime still names ${current || 'no application'} for ${type}; your desktop may keep its own setting.`,
      );
  },
};

/** @type {Command} */
export const linkUnregisterCommand = {
  name: 'link unregister',
  summary: 'Stop opening takes:// links with this CLI',
  usage: `Usage: takes link unregister [--server URL]

Undoes \`takes link register\`: on Linux removes $XDG_DATA_HOME/applications/${DESKTOP_FILE} and
its default association; on macOS and Windows it prints the steps. Nothing there is fine.`,
  options: {},
  async run(ctx) {
    const scheme = await desktopScheme(ctx);
    if (process.platform === 'darwin') {
      ctx.print(macUnregisterSteps());
      return;
    }
    if (process.platform === 'win32') {
      ctx.print(windowsUnregisterSteps(scheme));
      return;
    }
    const dir = path.join(dataHome(ctx.env), 'applications');
    const file = path.join(dir, DESKTOP_FILE);
    let changed = false;
    if (fs.existsSync(file)) {
      fs.rmSync(file, { force: true });
      ctx.print(`Removed ${file}`);
      changed = true;
    }
    // xdg-mime has no way to unset a default: take ours out of the lists it writes.
    const type = `x-scheme-handler/${scheme}`;
    for (const list of [
      path.join(configHome(ctx.env), 'mimeapps.list'),
      path.join(dir, 'mimeapps.list'),
    ]) {
      if (removeAssociation(list, type, DESKTOP_FILE)) {
        ctx.print(`Removed ${DESKTOP_FILE} as the handler of ${type} from ${list}`);
        changed = true;
      }
    }
    if (changed) await updateDesktopDatabase(ctx, dir);
    else ctx.print(`takes was not registered for ${scheme}:// links: nothing to remove.`);
  },
};

/**
 * The server's deep-link scheme (its DESKTOP_SCHEME), or `takes` with a note when it cannot be
 * asked.
 * @param {Context} ctx
 */
export async function desktopScheme(ctx) {
  try {
    const { scheme } = await callServer(
      serverClient(ctx.server),
      ctx.server,
      endpoints.desktop.getDesktopConfig,
      { signal: AbortSignal.timeout(5000) },
    );
    if (SCHEME.test(scheme)) return scheme;
    ctx.note(
      `${ctx.server} names a link scheme that is not one ("${scheme}"); using ${DEFAULT_SCHEME}://.`,
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    ctx.note(`${reason}; using the link scheme ${DEFAULT_SCHEME}://.`);
  }
  return DEFAULT_SCHEME;
}

/** This node and this CLI's script, both absolute: what a link runs, followed by `open URL`. */
function handlerCommand() {
  const script = process.argv[1];
  if (!script) throw new CliError('Cannot tell where the takes CLI is installed.');
  let real = path.resolve(script);
  try {
    real = fs.realpathSync(real);
  } catch {
    // Keep the path as given.
  }
  return [process.execPath, real];
}

/**
 * An XDG desktop entry that runs `takes open %u` for links of `scheme`.
 * @param {string} scheme
 * @param {string[]} command node and the CLI's script
 */
export function desktopEntry(scheme, command) {
  const exec = [...command.map(execArg), 'open', '%u'].join(' ');
  return `[Desktop Entry]
Type=Application
Name=Takes
Comment=Opens ${scheme}:// links (pull a repository, finish a sign-in) with the takes CLI
Exec=${exec}
MimeType=x-scheme-handler/${scheme};
NoDisplay=true
Terminal=true
`;
}

/**
 * One argument of a desktop entry's Exec line: quoted when it needs it, `%` doubled, and then
 * escaped as the value of a string key.
 * @param {string} arg
 */
export function execArg(arg) {
  // eslint-disable-next-line no-control-regex -- a path with a control character cannot be written
  if (/[\u0000-\u001f\u007f]/.test(arg))
    throw new CliError(`Cannot use this path in a link handler: ${JSON.stringify(arg)}`);
  const quoted = /^[\w/.+,=@:-]+$/.test(arg) ? arg : `"${arg.replace(/["`$\\]/g, '\\$&')}"`;
  return quoted.replace(/%/g, '%%').replace(/\\/g, '\\\\');
}

/**
 * @param {string} scheme
 * @param {string[]} command node and the CLI's script
 */
export function windowsRegisterSteps(scheme, command) {
  const key = `HKEY_CURRENT_USER\\Software\\Classes\\${scheme}`;
  const run = [...command.map((part) => `"${part}"`), 'open', '"%1"'].join(' ');
  return `Windows keeps link handlers in the registry. To open ${scheme}:// links with takes, save
these lines as takes-url.reg, then double-click it (or run \`reg import takes-url.reg\`):

Windows Registry Editor Version 5.00

[${key}]
@="URL:Takes"
"URL Protocol"=""

[${key}\\shell]

[${key}\\shell\\open]

[${key}\\shell\\open\\command]
@=${regString(run)}

To undo it: takes link unregister`;
}

/** @param {string} scheme */
export function windowsUnregisterSteps(scheme) {
  const key = `HKEY_CURRENT_USER\\Software\\Classes\\${scheme}`;
  return `To stop opening ${scheme}:// links with takes, run:

reg delete "HKCU\\Software\\Classes\\${scheme}" /f

or save these lines as takes-url-remove.reg and double-click it:

Windows Registry Editor Version 5.00

[-${key}]`;
}

/**
 * A .reg file's string value: quoted, with backslashes and quotes escaped.
 * @param {string} value
 */
function regString(value) {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * @param {string} scheme
 * @param {string[]} command node and the CLI's script
 */
export function macRegisterSteps(scheme, command) {
  const [node = '', script = ''] = command;
  const app = `"$HOME/Applications/${MAC_APP}"`;
  const urlTypes = JSON.stringify([{ CFBundleURLName: 'Takes', CFBundleURLSchemes: [scheme] }]);
  return `macOS gives links only to apps. To open ${scheme}:// links with takes, make a small app once:

1. Open Script Editor, start a new document and paste this script:

on open location theURL
  tell application "Terminal"
    activate
    do script (quoted form of ${appleString(node)}) & " " & (quoted form of ${appleString(script)}) & " open " & (quoted form of theURL)
  end tell
end open location

2. Choose File > Export…, File Format: Application, and save it as "${MAC_APP.replace(/\.app$/, '')}" in the
   Applications folder of your home folder (~/Applications).

3. In Terminal, declare the link scheme in the app, sign it again and register it:

plutil -insert CFBundleURLTypes -json '${urlTypes}' ${app}/Contents/Info.plist
codesign --force --sign - ${app}
${LSREGISTER} -f ${app}

4. Try it: open '${scheme}://pull?repo=REPOSITORY_ID'

To undo it: takes link unregister`;
}

export function macUnregisterSteps() {
  const app = `"$HOME/Applications/${MAC_APP}"`;
  return `To stop opening links with takes, run in Terminal:

${LSREGISTER} -u ${app}
rm -rf ${app}`;
}

/**
 * An AppleScript string literal.
 * @param {string} value
 */
function appleString(value) {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * Takes `desktopFile` out of `type`'s entries in a mimeapps.list; whether anything changed.
 * @param {string} list
 * @param {string} type
 * @param {string} desktopFile
 */
export function removeAssociation(list, type, desktopFile) {
  let text;
  try {
    text = fs.readFileSync(list, 'utf8');
  } catch {
    return false;
  }
  let changed = false;
  /** @type {string[]} */
  const kept = [];
  for (const line of text.split('\n')) {
    const match = /^\s*([^=#[\s][^=]*?)\s*=(.*)$/.exec(line);
    if (match && match[1] === type) {
      const apps = (match[2] ?? '').split(';').map((a) => a.trim());
      const others = apps.filter((a) => a !== '' && a !== desktopFile);
      if (others.length !== apps.filter((a) => a !== '').length) {
        changed = true;
        if (others.length > 0) kept.push(`${type}=${others.join(';')};`);
        continue;
      }
    }
    kept.push(line);
  }
  if (changed) writeAtomically(list, kept.join('\n'));
  return changed;
}

/** @param {NodeJS.ProcessEnv} env */
function home(env) {
  return env.HOME || os.homedir();
}

/** $XDG_DATA_HOME, else ~/.local/share. @param {NodeJS.ProcessEnv} env */
export function dataHome(env) {
  const value = env.XDG_DATA_HOME;
  return value && path.isAbsolute(value) ? value : path.join(home(env), '.local', 'share');
}

/** $XDG_CONFIG_HOME, else ~/.config. @param {NodeJS.ProcessEnv} env */
function configHome(env) {
  const value = env.XDG_CONFIG_HOME;
  return value && path.isAbsolute(value) ? value : path.join(home(env), '.config');
}

/**
 * An executable of that name on $PATH, or undefined.
 * @param {string} name
 * @param {NodeJS.ProcessEnv} env
 */
function findExecutable(name, env) {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/**
 * update-desktop-database on the folder, when it is installed; a failure is only a note.
 * @param {Context} ctx
 * @param {string} dir
 */
async function updateDesktopDatabase(ctx, dir) {
  const tool = findExecutable('update-desktop-database', ctx.env);
  if (!tool) return;
  try {
    await run(tool, [dir], ctx.env);
  } catch (error) {
    ctx.note(`Note: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Runs a program without a shell: its stdout, or a CliError with what it said.
 * @param {string} file
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<string>}
 */
function run(file, args, env) {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env, timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) {
        const said = String(stderr).trim() || error.message;
        reject(new CliError(`${path.basename(file)} ${args.join(' ')} failed: ${said}`));
        return;
      }
      resolve(String(stdout));
    });
  });
}

/**
 * @param {string} file
 * @param {string} text
 */
function writeAtomically(file, text) {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, file);
}
