import fsp from 'node:fs/promises';
import path from 'node:path';

/** Scratch files (and processing folders) older than this are left over from a dead process. */
export const SCRATCH_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** How often a running process sweeps again. */
export const SCRATCH_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Removes what interrupted uploads and killed processing runs left in the scratch folder:
 * every entry not modified for `maxAgeMs`. Several processes may sweep one folder at once;
 * an entry another one removed first is simply gone. Returns the names it removed.
 */
export async function sweepScratch(
  dir: string,
  options: { maxAgeMs?: number; now?: () => Date } = {},
): Promise<string[]> {
  const cutoff =
    (options.now?.() ?? new Date()).getTime() - (options.maxAgeMs ?? SCRATCH_MAX_AGE_MS);
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
  const removed: string[] = [];
  for (const name of names) {
    const entry = path.join(dir, name);
    try {
      const info = await fsp.lstat(entry);
      if (info.mtimeMs >= cutoff) continue;
      await fsp.rm(entry, { recursive: true, force: true });
      removed.push(name);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  return removed;
}

export interface Sweeper {
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `sweep` every `intervalMs` (the timer does not keep the process alive). One sweep at a
 * time; a failed sweep is reported and the next one runs as planned.
 */
export function startSweeper(
  sweep: () => Promise<void>,
  options: { intervalMs?: number; onError: (error: unknown) => void },
): Sweeper {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = sweep()
      .catch(options.onError)
      .finally(() => {
        running = undefined;
      });
  }, options.intervalMs ?? SCRATCH_SWEEP_INTERVAL_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
