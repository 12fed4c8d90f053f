// The output a long-running Takes process (`serve`, `worker`, `takes watch`) writes its lines
// through. Nothing here is of the API: it lives in this package because both the server and the
// CLI use it, and it needs no Node module of its own (it is handed the stream).

/** What is asked of the stream written to: a Node Writable such as `process.stdout`. */
export interface OutputStream {
  write(chunk: string): boolean;
  readonly writableLength: number;
  on(event: 'drain', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * How much unwritten output a process keeps while its reader stalls (a log shipper that is slow or
 * stuck): past it, lines are dropped and counted. 4 MiB is about a second of request logs at the
 * fastest this server answers.
 */
export const OUTPUT_BUFFER_BYTES = 4 * 1024 * 1024;

/** How often a flush looks whether the output has emptied. */
const FLUSH_POLL_MS = 20;

export interface BoundedOutputOptions {
  /** Unwritten characters kept at most (OUTPUT_BUFFER_BYTES unless given). */
  maxBuffered?: number;
  /** The line that says how many lines were dropped, once writing works again. */
  droppedNotice: (count: number) => string;
}

export interface BoundedOutput {
  /** Writes the line, or drops and counts it while the buffer is full; never blocks, never throws. */
  write(line: string): boolean;
  /** Lines dropped and not yet reported. */
  readonly dropped: number;
  /** True once the output failed (a broken pipe): nothing is written to it again. */
  readonly broken: boolean;
  /** Resolves once what was written has left the process, or at the deadline, whichever is first. */
  flush(deadlineMs: number): Promise<void>;
}

/**
 * Writes lines to an asynchronous stream with a bounded buffer. A stalled reader costs at most
 * `maxBuffered` characters of memory; what does not fit is dropped and counted, and one line says
 * how many once the buffer has drained. An error on the stream (EPIPE when the reader went away)
 * stops all writing to it: no retry, no exception.
 */
export function boundedOutput(stream: OutputStream, options: BoundedOutputOptions): BoundedOutput {
  const max = options.maxBuffered ?? OUTPUT_BUFFER_BYTES;
  let dropped = 0;
  let broken = false;
  const report = () => {
    if (dropped === 0 || broken) return;
    const count = dropped;
    dropped = 0;
    stream.write(options.droppedNotice(count));
  };
  stream.on('error', () => {
    broken = true;
  });
  // Fires when the buffer has emptied after a write that filled it: the reader is back.
  stream.on('drain', report);
  return {
    write(line) {
      if (broken || stream.writableLength + line.length > max) {
        dropped += 1;
        return true;
      }
      if (dropped > 0 && stream.writableLength === 0) report();
      stream.write(line);
      return true;
    },
    get dropped() {
      return dropped;
    },
    get broken() {
      return broken;
    },
    flush(deadlineMs) {
      const deadline = Date.now() + deadlineMs;
      return new Promise((resolve) => {
        const check = () => {
          if (broken || stream.writableLength === 0 || Date.now() >= deadline) resolve();
          else setTimeout(check, FLUSH_POLL_MS);
        };
        check();
      });
    },
  };
}
