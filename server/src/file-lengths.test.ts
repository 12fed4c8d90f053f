import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const TREES = ['server/src', 'web/src', 'cli/src', 'packages/contract/src'];
/** Generated (routes.ts) or the one table of every column (schema.ts). */
const EXEMPT = new Set(['packages/contract/src/routes.ts', 'server/src/db/schema.ts']);
const MAX_LINES = 400;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('source files', () => {
  // A file past 400 lines holds more than one thing: split it by what each part does.
  it(`are at most ${MAX_LINES} lines`, () => {
    const long = TREES.flatMap((tree) => sources(path.join(ROOT, tree)))
      .map((file) => path.relative(ROOT, file))
      .filter((file) => !EXEMPT.has(file))
      .map((file) => ({
        file,
        lines: fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').length - 1,
      }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
