import type { FileHandle } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';

/**
 * Bytes read from a file at a time. Large reads cut the per-chunk work (a read on the thread
 * pool, a socket write, an event-loop turn) that made whole-file streaming 6× slower than nginx;
 * it is also what one listener holds while the network is slower than the disk.
 */
export const FILE_CHUNK_BYTES = 512 * 1024;

/**
 * Read buffers are reused once the socket is done with them: a fresh 512 KB buffer per read
 * costs a mapping of new memory (and its page faults) each time, which doubled the CPU time per
 * byte. At most this many idle buffers are kept (8 MB).
 */
const POOL_LIMIT = 16;
const pool: Buffer[] = [];

function takeBuffer(): Buffer {
  return pool.pop() ?? Buffer.allocUnsafeSlow(FILE_CHUNK_BYTES);
}

function giveBack(buffer: Buffer): void {
  if (pool.length < POOL_LIMIT) pool.push(buffer);
}

/**
 * A byte range of an open file as a response body. Piped into a response (what Fastify does
 * with a stream payload) it reads into reused buffers and hands each back only when the write's
 * callback says the socket has taken its bytes; read any other way it is an ordinary Readable
 * (fresh buffers). It closes the file (or hands it back) when done, on error, and when destroyed
 * (Fastify destroys it when the client goes away).
 */
export class FileBody extends Readable {
  private position: number;
  private readonly last: number;
  private closing: Promise<void> | undefined;
  private piped = false;

  /**
   * `end` is inclusive (as in a Range header); an empty range is `end = start - 1`. `done` is
   * what finishing does with the file: close it, or hand a shared handle back (OpenFiles).
   */
  constructor(
    private readonly handle: FileHandle,
    start: number,
    end: number,
    private readonly done: () => Promise<void> = () => handle.close(),
  ) {
    super({ highWaterMark: FILE_CHUNK_BYTES });
    this.position = start;
    this.last = end;
  }

  override _read(size: number): void {
    const remaining = this.last - this.position + 1;
    if (remaining <= 0) {
      this.push(null);
      return;
    }
    const length = Math.min(Math.max(size, FILE_CHUNK_BYTES), remaining);
    const buffer = Buffer.allocUnsafe(length);
    this.handle.read(buffer, 0, length, this.position).then(
      ({ bytesRead }) => {
        if (this.destroyed) return;
        if (bytesRead === 0) {
          this.destroy(new Error('The file ended before the expected length'));
          return;
        }
        this.position += bytesRead;
        this.push(bytesRead === length ? buffer : buffer.subarray(0, bytesRead));
      },
      (error: unknown) => this.destroy(error as Error),
    );
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    if (this.piped || this.readableFlowing !== null) return super.pipe(destination, options);
    this.piped = true;
    void this.copyTo(destination as unknown as Writable, options?.end !== false);
    return destination;
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.close().then(
      () => callback(error),
      () => callback(error),
    );
  }

  private close(): Promise<void> {
    this.closing ??= this.done();
    return this.closing;
  }

  private async copyTo(destination: Writable, end: boolean): Promise<void> {
    destination.emit('pipe', this);
    try {
      while (this.position <= this.last) {
        if (this.destroyed || destination.destroyed) return;
        const buffer = takeBuffer();
        const length = Math.min(FILE_CHUNK_BYTES, this.last - this.position + 1);
        const { bytesRead } = await this.handle.read(buffer, 0, length, this.position);
        if (this.destroyed || destination.destroyed) return;
        if (bytesRead === 0) throw new Error('The file ended before the expected length');
        this.position += bytesRead;
        const chunk = bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
        // The buffer is reused only once the socket has taken the bytes (no error).
        const ready = destination.write(chunk, (error?: Error | null) => {
          if (!error) giveBack(buffer);
        });
        if (!ready) await drained(destination);
      }
      if (this.destroyed) return;
      await this.close();
      // Ends this stream as a Readable, so whoever waits for its end (Fastify) hears of it.
      this.push(null);
      this.resume();
      if (end) destination.end();
    } catch (error) {
      this.destroy(error as Error);
    }
  }
}

/** Resolves when the destination can take more, or is gone (then the loop stops). */
function drained(destination: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (destination.destroyed || !destination.writableNeedDrain) {
      resolve();
      return;
    }
    const done = () => {
      destination.off('drain', done);
      destination.off('close', done);
      destination.off('error', done);
      resolve();
    };
    destination.on('drain', done);
    destination.on('close', done);
    destination.on('error', done);
  });
}
