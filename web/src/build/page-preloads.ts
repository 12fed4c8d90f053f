/**
 * Build-time only (imported by vite.config.ts, never by the app): which files each lazily loaded
 * page needs, so the server can list them in the HTML it sends for that page's address
 * (`<link rel="modulepreload">`) and the browser fetches them beside the entry's own bundle
 * instead of after it has run.
 */

/** A page's address as the router writes it (`/projects/:projectId`) and the files it loads. */
export interface PagePreload {
  path: string;
  files: string[];
}

/** What the build knows of one JavaScript chunk (a subset of Rollup's OutputChunk). */
export interface ChunkInfo {
  fileName: string;
  facadeModuleId: string | null;
  isEntry: boolean;
  imports: string[];
  moduleIds: string[];
}

/**
 * The routes of `router.tsx` that are lazy pages: `lazyRoute('/path', Name)` with
 * `const Name = page(() => import('module'), …)`, or `lazyRoute('/path', page(() => import('module'), …))`.
 * Returns each route's path and module specifier (relative to the router's folder). Throws when a
 * `lazyRoute(` call is not understood, so a change in the router's shape fails the build instead
 * of silently dropping its pages' preloads.
 */
export function lazyPagesOf(routerSource: string): { path: string; module: string }[] {
  const modules = new Map<string, string>();
  for (const match of routerSource.matchAll(
    /const\s+(\w+)\s*=\s*page\(\s*\(\)\s*=>\s*import\(\s*'([^']+)'\s*\)/g,
  ))
    modules.set(match[1]!, match[2]!);
  const calls = [...routerSource.matchAll(/\blazyRoute\(/g)].length;
  const pages: { path: string; module: string }[] = [];
  for (const match of routerSource.matchAll(
    /\blazyRoute\(\s*'([^']+)',\s*(?:(\w+)\s*\)|page\(\s*\(\)\s*=>\s*import\(\s*'([^']+)'\s*\))/g,
  )) {
    const [, path, name, inline] = match;
    const module = inline ?? modules.get(name!);
    if (!module) throw new Error(`page-preloads: no page() import for ${name} (route ${path})`);
    pages.push({ path: path!, module });
  }
  // The function's own declaration is one `lazyRoute(` that is not a call.
  const declarations = [...routerSource.matchAll(/function\s+lazyRoute\(/g)].length;
  if (pages.length !== calls - declarations)
    throw new Error(
      `page-preloads: understood ${pages.length} of ${calls - declarations} lazyRoute() calls in router.tsx`,
    );
  return pages;
}

/**
 * For each page, its chunk and every chunk that one imports statically (transitively), less
 * what the entry loads already. `moduleId` resolves a route's module specifier to the id Rollup
 * gives the page's module (its absolute path).
 */
export function pagePreloads(
  pages: { path: string; module: string }[],
  chunks: ChunkInfo[],
  entryFileName: string,
  moduleId: (specifier: string) => string,
): PagePreload[] {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const closure = (fileName: string): Set<string> => {
    const seen = new Set<string>();
    const visit = (name: string) => {
      if (seen.has(name)) return;
      seen.add(name);
      for (const next of byFile.get(name)?.imports ?? []) visit(next);
    };
    visit(fileName);
    return seen;
  };
  const loadedByEntry = closure(entryFileName);
  return pages.map(({ path, module }) => {
    const id = moduleId(module);
    // Its own chunk, else the chunk it was bundled into (a page another entry imports).
    const chunk =
      chunks.find((c) => !c.isEntry && c.facadeModuleId === id) ??
      chunks.find((c) => c.moduleIds.includes(id));
    if (!chunk) throw new Error(`page-preloads: no chunk for ${module} (route ${path})`);
    const files = [...closure(chunk.fileName)].filter((file) => !loadedByEntry.has(file));
    return { path, files };
  });
}
