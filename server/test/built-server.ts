import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface BuiltServer {
  /** The bundled `main.js`, run as `node mainJs serve|worker|migrate|backup|restore`. */
  mainJs: string;
  remove(): void;
}

/**
 * The server bundled as `npm run build` bundles it (build.mjs), into a folder of its own under
 * dist/: tests that spawn real processes run what is deployed, and start much quicker than tsx.
 */
export async function buildServer(label: string): Promise<BuiltServer> {
  fs.mkdirSync(path.join(serverDir, 'dist'), { recursive: true });
  const outDir = fs.mkdtempSync(path.join(serverDir, 'dist', `${label}-`));
  const mainJs = path.join(outDir, 'main.js');
  const pkg = JSON.parse(fs.readFileSync(path.join(serverDir, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  await build({
    entryPoints: [path.join(serverDir, 'src', 'main.ts')],
    outfile: mainJs,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    external: Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@takes/')),
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  return { mainJs, remove: () => fs.rmSync(outDir, { recursive: true, force: true }) };
}
