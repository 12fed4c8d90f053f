import type { HealthCheck, HealthResponse } from '@takes/contract';
import type { AppDeps } from '../../deps';

const FFMPEG_CACHE_MS = 60_000;

/** Checks the parts a request may need: the database, object storage and ffmpeg. */
export class HealthService {
  private ffmpegCache: { at: number; check: HealthCheck } | undefined;

  constructor(private readonly deps: Pick<AppDeps, 'database' | 'storage' | 'media' | 'clock'>) {}

  async report(): Promise<HealthResponse> {
    const [database, storage, ffmpeg] = await Promise.all([
      probe(() => this.deps.database.ping().then(() => this.deps.database.dialect)),
      probe(() => this.deps.storage.check().then(() => this.deps.storage.kind)),
      this.ffmpeg(),
    ]);
    const allOk = [database, storage, ffmpeg].every((c) => c.status === 'ok');
    return { status: allOk ? 'ok' : 'error', checks: { database, storage, ffmpeg } };
  }

  // Spawning ffmpeg on every health probe would be wasteful; its presence rarely changes.
  private async ffmpeg(): Promise<HealthCheck> {
    const now = this.deps.clock.now().getTime();
    if (this.ffmpegCache && now - this.ffmpegCache.at < FFMPEG_CACHE_MS)
      return this.ffmpegCache.check;
    const check = await probe(() => this.deps.media.version());
    this.ffmpegCache = { at: now, check };
    return check;
  }
}

async function probe(run: () => Promise<string>): Promise<HealthCheck> {
  try {
    return { status: 'ok', detail: await run() };
  } catch (error) {
    return { status: 'error', detail: error instanceof Error ? error.message : String(error) };
  }
}
