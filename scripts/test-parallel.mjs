#!/usr/bin/env node
// Runs test commands side by side (`name=command` ...), each line prefixed with its name, and
// ends with what a reader of the last lines needs: each part's exit code and, for a part that
// failed, the lines that name its failures and its own last lines. A CI log that keeps only its
// tail then still says what failed, even when the other part finished later.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const FAILURE = /(\bFAIL\b|\bfailed\b|\bError\b|✘|×|\btimed? ?out\b|\bexited with code [1-9])/i;
const SHOWN_FAILURE_LINES = 40;
const SHOWN_LAST_LINES = 40;
const KEPT_LINES = 5000;
// eslint-disable-next-line no-control-regex
const stripAnsi = (line) => line.replace(/\u001b\[[0-9;]*m/g, '');

const parts = process.argv.slice(2).map((argument) => {
  const at = argument.indexOf('=');
  if (at < 1) {
    console.error(`test-parallel: "${argument}" is not name=command`);
    process.exit(2);
  }
  return { name: argument.slice(0, at), command: argument.slice(at + 1) };
});
if (parts.length === 0) {
  console.error('test-parallel: give one or more name=command');
  process.exit(2);
}

const children = [];
function run({ name, command }) {
  return new Promise((resolve) => {
    const child = spawn(command, {
      shell: true,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
    });
    children.push(child);
    const failures = [];
    const last = [];
    const take = (line) => {
      process.stdout.write(`[${name}] ${line}\n`);
      const plain = stripAnsi(line);
      // A passing test's name may say 'failed' ('records a failed alignment'): not a failure.
      if (FAILURE.test(plain) && !plain.includes('✓') && failures.length < KEPT_LINES)
        failures.push(plain);
      last.push(plain);
      if (last.length > SHOWN_LAST_LINES) last.shift();
    };
    createInterface({ input: child.stdout }).on('line', take);
    createInterface({ input: child.stderr }).on('line', take);
    child.on('close', (code, signal) => resolve({ name, code: code ?? 1, signal, failures, last }));
  });
}

function stopAll(signal) {
  for (const child of children) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopAll(signal);
    process.exit(130);
  });
}

const results = await Promise.all(parts.map(run));
const failed = results.filter((result) => result.code !== 0);
for (const result of failed) {
  console.log(`\n── ${result.name} failed (exit ${result.signal ?? result.code}) ──`);
  console.log(`Lines of ${result.name} that name a failure (first ${SHOWN_FAILURE_LINES}):`);
  for (const line of result.failures.slice(0, SHOWN_FAILURE_LINES)) console.log(`  ${line}`);
  console.log(`The last ${SHOWN_LAST_LINES} lines of ${result.name}:`);
  for (const line of result.last) console.log(`  ${line}`);
}
console.log(
  `\n${results.map((result) => `${result.name}: ${result.code === 0 ? 'passed' : `FAILED (exit ${result.signal ?? result.code})`}`).join(' · ')}`,
);
process.exit(failed.length > 0 ? 1 : 0);
