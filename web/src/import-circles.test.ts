// @vitest-environment node
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(fileURLToPath(import.meta.url));

describe('web/src imports', () => {
  // A circle (type-only imports included) means two files that cannot be read, tested or
  // loaded apart: shared pieces move down into a module both may import.
  it('form no circle', async () => {
    const graph = await madge(SRC, {
      fileExtensions: ['ts', 'tsx'],
      excludeRegExp: [/\.test\.tsx?$/],
    });
    expect(graph.circular()).toEqual([]);
  }, 60_000);
});
