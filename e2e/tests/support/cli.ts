import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository's own `takes` command-line client. */
const CLI_ENTRY = fileURLToPath(new URL('../../../cli/bin/takes.js', import.meta.url));

/** A `takes` client with its own credentials folder, talking to one server. */
export interface TakesCli {
  run: (...args: string[]) => Promise<string>;
  /** Removes the credentials folder. */
  dispose: () => Promise<void>;
}

export async function takesCli(server: string): Promise<TakesCli> {
  const configDir = await mkdtemp(join(tmpdir(), 'takes-cli-e2e-'));
  return {
    async run(...args) {
      try {
        const { stdout } = await run(process.execPath, [CLI_ENTRY, ...args, '--server', server], {
          env: { ...process.env, TAKES_CONFIG_DIR: configDir, NO_COLOR: '1' },
          timeout: 60_000,
        });
        return stdout;
      } catch (error) {
        const failed = error as { stdout?: string; stderr?: string; message: string };
        throw new Error(
          `takes ${args.join(' ')} failed: ${failed.message}\n${failed.stdout ?? ''}${failed.stderr ?? ''}`,
        );
      }
    },
    dispose: () => rm(configDir, { recursive: true, force: true }),
  };
}

/** A WAV's 16-bit samples scaled by `gain` (e.g. 0.5 for 6 dB quieter); the 44-byte header is kept. */
export function scaledWav(wav: Buffer, gain: number): Buffer {
  const scaled = Buffer.from(wav);
  for (let offset = 44; offset + 1 < scaled.length; offset += 2) {
    scaled.writeInt16LE(Math.round(scaled.readInt16LE(offset) * gain), offset);
  }
  return scaled;
}
