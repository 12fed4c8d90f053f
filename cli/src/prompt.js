// @ts-check
import readline from 'node:readline';
import { CliError } from './errors.js';

/**
 * Asks one question on stderr and reads one line from stdin (a terminal or a pipe). With
 * `signal`, the question is withdrawn when it aborts (the answer came another way): stdin is let
 * go and the promise never settles.
 * @param {string} question
 * @param {{ input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream; signal?: AbortSignal }} [streams]
 * @returns {Promise<string>} the answer, trimmed
 */
export function ask(question, streams = {}) {
  const input = streams.input ?? process.stdin;
  const output = streams.output ?? process.stderr;
  const rl = readline.createInterface({ input, output, terminal: false });
  output.write(`${question} `);
  return new Promise((resolve, reject) => {
    let answered = false;
    rl.once('line', (line) => {
      answered = true;
      rl.close();
      resolve(line.trim());
    });
    rl.once('close', () => {
      if (!answered) reject(new CliError('No answer was entered.'));
    });
    streams.signal?.addEventListener(
      'abort',
      () => {
        answered = true;
        rl.close();
        // A pipe or terminal that is still open would keep the process waiting for a line.
        if ('unref' in input && typeof input.unref === 'function') input.unref();
      },
      { once: true },
    );
  });
}
