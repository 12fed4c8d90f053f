import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { Database } from '../db/schema';
import { sweepStaleOriginalRefs } from '../modules/audio';
import type { ObjectStore } from './object-store';
import {
  SCRATCH_MAX_AGE_MS,
  SCRATCH_SWEEP_INTERVAL_MS,
  startSweeper,
  sweepScratch,
  type Sweeper,
} from './scratch-sweep';

/**
 * What every process (server or worker) sweeps at start-up and then hourly: its scratch
 * folder (DATA_DIR/tmp, per machine) and the references of uploads that never finished.
 * Several processes doing it at once is harmless.
 */
export async function sweepOnceAndHourly(deps: {
  tmpDir: string;
  db: Kysely<Database>;
  storage: ObjectStore;
  clock: Clock;
  logger: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  intervalMs?: number;
}): Promise<Sweeper> {
  const sweep = async () => {
    const removed = await sweepScratch(deps.tmpDir, {
      maxAgeMs: SCRATCH_MAX_AGE_MS,
      now: () => deps.clock.now(),
    });
    const refs = await sweepStaleOriginalRefs(deps, SCRATCH_MAX_AGE_MS);
    if (removed.length > 0 || refs > 0)
      deps.logger.info({ scratch: removed.length, staleUploads: refs }, 'swept leftovers');
  };
  const onError = (error: unknown) => deps.logger.warn({ err: error }, 'sweep failed');
  await sweep().catch(onError);
  return startSweeper(sweep, { intervalMs: deps.intervalMs ?? SCRATCH_SWEEP_INTERVAL_MS, onError });
}
