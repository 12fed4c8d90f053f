import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MediaRunner } from '../../media/runner';
import type { ObjectStore } from '../../storage/object-store';

/** The sizes a player may ask for (`getCoverArt?size=`), in pixels. */
export const COVER_SIZE_MIN = 16;
export const COVER_SIZE_MAX = 1200;
/** Scaled covers kept in memory (a phone asks for the same few sizes of the same covers). */
const KEPT = 200;

/**
 * Covers scaled for a player: the stored image fitted inside `size` × `size` by ffmpeg, as JPEG.
 * Scaled copies are kept in memory, keyed by the cover's key (a new cover is a new key).
 */
export class CoverSizer {
  private readonly kept = new Map<string, Buffer>();
  private readonly running = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly deps: {
      storage: ObjectStore;
      media: MediaRunner;
      tmpDir: string;
      timeoutMs: number;
    },
  ) {}

  async scaled(key: string, size: number): Promise<Buffer> {
    const id = `${key}@${size}`;
    const kept = this.kept.get(id);
    if (kept) {
      this.kept.delete(id);
      this.kept.set(id, kept);
      return kept;
    }
    let running = this.running.get(id);
    if (!running) {
      running = this.scale(key, size).finally(() => this.running.delete(id));
      this.running.set(id, running);
    }
    const image = await running;
    this.kept.set(id, image);
    while (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value as string);
    return image;
  }

  private async scale(key: string, size: number): Promise<Buffer> {
    const file = path.join(this.deps.tmpDir, `cover-${randomUUID()}`);
    try {
      const { body } = await this.deps.storage.get(key);
      await pipeline(body, createWriteStream(file));
      const fit = `scale=w=${size}:h=${size}:force_original_aspect_ratio=decrease`;
      const { stdout } = await this.deps.media.ffmpeg(
        ['-loglevel', 'error', '-i', file, '-vf', fit, '-frames:v', '1', '-f', 'mjpeg', 'pipe:1'],
        { timeoutMs: this.deps.timeoutMs, maxStdoutBytes: 8 * 1024 * 1024 },
      );
      return stdout;
    } finally {
      await rm(file, { force: true });
    }
  }
}
