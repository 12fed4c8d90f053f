import path from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(fileURLToPath(import.meta.url));

describe('server/src imports', () => {
  // A circle (type-only imports included) means two files that cannot be read, tested or
  // loaded apart; wiring belongs in services.ts and job handlers, not in a loop between modules.
  it('form no circle', async () => {
    const graph = await madge(SRC, {
      fileExtensions: ['ts'],
      excludeRegExp: [/\.test\.ts$/],
    });
    expect(graph.circular()).toEqual([]);
  }, 60_000);
});
