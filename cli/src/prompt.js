// @ts-check
import readline from 'node:readline';
import { CliError } from './errors.js';

/**
 * Asks one question on stderr and reads one line from stdin (a terminal or a pipe).
 * @param {string} question
 * @param {{ input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream }} [streams]
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
  });
}
