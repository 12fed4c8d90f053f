// Bundles the contract (descriptors, schemas, the typed client, with zod) into dist/index.js for
// plain-JavaScript callers that cannot load TypeScript: the `takes` CLI. TypeScript callers (server,
// web, tests) import src/ directly; `npm install` runs this through the root `prepare` script.
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('./src/index.ts', import.meta.url).pathname],
  outfile: new URL('./dist/index.js', import.meta.url).pathname,
  bundle: true,
  platform: 'neutral',
  target: 'es2022',
  format: 'esm',
  logLevel: 'warning',
});
