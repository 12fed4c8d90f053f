import type { Config } from '../config';
import { OpsError } from './backup-format';
import { createBackup } from './backup';
import { restoreBackup } from './restore';

const USAGE = {
  backup: 'Usage: node server/dist/main.js backup <file> [--force]',
  restore: 'Usage: node server/dist/main.js restore <file>',
};

/**
 * `backup <file> [--force]` and `restore <file>`: one line per step on stdout, a refusal or
 * failure as one line on stderr. Returns the exit code (2 for a wrong command line).
 */
export async function runOpsCommand(
  command: 'backup' | 'restore',
  args: string[],
  config: Config,
): Promise<number> {
  const flags = args.filter((arg) => arg.startsWith('--'));
  const files = args.filter((arg) => !arg.startsWith('--'));
  const allowed = command === 'backup' ? ['--force'] : [];
  const file = files[0];
  if (files.length !== 1 || !file || flags.some((flag) => !allowed.includes(flag))) {
    console.error(USAGE[command]);
    return 2;
  }
  const say = (line: string) => console.log(line);
  try {
    if (command === 'backup')
      await createBackup(config, file, { force: flags.includes('--force'), say });
    else await restoreBackup(config, file, { say });
    return 0;
  } catch (error) {
    // A refusal says all there is to say; anything else is named with the command that failed.
    const message = error instanceof Error ? error.message : String(error);
    console.error(error instanceof OpsError ? message : `${command} failed: ${message}`);
    return 1;
  }
}
