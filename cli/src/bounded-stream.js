// @ts-check
import { boundedOutput } from '@takes/contract/runtime';

/** How long a stopping `takes watch` waits for its last lines to be read. */
const FLUSH_MS = 2_000;

/**
 * The output of a long-running command (`takes watch`), often on a pipe to a service manager or a
 * log shipper: a stalled reader holds at most OUTPUT_BUFFER_BYTES of it (what does not fit is
 * dropped, counted and reported in one line once the reader is back), and a reader that went away
 * (EPIPE) stops the output instead of ending the command.
 * @param {NodeJS.WriteStream} stream
 * @returns {{ stream: NodeJS.WriteStream; close(): Promise<void> }} `close` waits for what was
 *   written, at most 2 s, then lets go of a stream still stalled, so the process can end
 */
export function boundedStream(stream) {
  const output = boundedOutput(stream, {
    droppedNotice: (count) =>
      `takes: ${count} lines of output were dropped while nobody was reading them\n`,
  });
  const bounded = /** @type {NodeJS.WriteStream} */ (
    /** @type {unknown} */ ({
      isTTY: stream.isTTY,
      columns: stream.columns,
      /** @param {string | Uint8Array} chunk */
      write: (chunk) => output.write(String(chunk)),
    })
  );
  return {
    stream: bounded,
    async close() {
      await output.flush(FLUSH_MS);
      if (stream.writableLength > 0) stream.destroy();
    },
  };
}
