import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The web build as the server sends it: vite's manifest (what each file imports) and
 * dist/.vite/chunk-modules.json (which source modules each file holds), written by
 * web/vite.config.ts.
 */
const dist = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'web',
  'dist',
);

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

function readJson<T>(relative: string): T {
  return JSON.parse(fs.readFileSync(path.join(dist, relative), 'utf8')) as T;
}

export const manifest = readJson<Record<string, ManifestChunk>>('.vite/manifest.json');
export const chunkModules = readJson<Record<string, string[]>>('.vite/chunk-modules.json');

/** The files an entry loads before anything runs: itself and its static imports, transitively. */
export function staticFiles(entry: string): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the manifest`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entry);
  return files;
}

/** The source modules the given built files hold. */
export function modulesIn(files: Iterable<string>): string[] {
  return [...files].flatMap((file) => chunkModules[file] ?? []);
}
