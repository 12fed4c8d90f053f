// @ts-check
import { formatBytes } from './format.js';

const BAR_WIDTH = 30;

/**
 * Upload progress on stderr: a redrawn bar on a terminal; otherwise a line per 10%.
 * @param {NodeJS.WriteStream} stream
 * @param {string} label
 * @param {number} total bytes
 */
export function createProgress(stream, label, total) {
  const tty = stream.isTTY === true;
  let lastDecile = -1;
  let lastDraw = 0;

  /** @param {number} sent */
  function percentOf(sent) {
    return total > 0 ? Math.min(100, Math.floor((sent / total) * 100)) : 100;
  }

  return {
    /** @param {number} sent */
    update(sent) {
      const percent = percentOf(sent);
      if (tty) {
        const now = Date.now();
        // Redrawing on every chunk would flood a slow terminal.
        if (now - lastDraw < 80 && sent < total) return;
        lastDraw = now;
        const filled = Math.round((percent / 100) * BAR_WIDTH);
        const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`;
        stream.write(
          `\r${label} ${bar} ${String(percent).padStart(3)}%  ${formatBytes(sent)} / ${formatBytes(total)}\x1b[K`,
        );
        return;
      }
      const decile = Math.floor(percent / 10);
      if (decile === lastDecile) return;
      lastDecile = decile;
      stream.write(`${label} ${percent}% (${formatBytes(sent)} of ${formatBytes(total)})\n`);
    },
    /** Ends the bar's line (a terminal) so what follows starts on its own line. */
    finish() {
      if (tty && lastDraw > 0) stream.write('\n');
    },
  };
}
