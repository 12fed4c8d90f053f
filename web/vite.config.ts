import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import {
  lazyPagesOf,
  pagePreloads,
  type ChunkInfo,
  type PagePreload,
} from './src/build/page-preloads';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * Writes dist/.vite/chunk-modules.json: for each built JavaScript file, the source modules in it
 * (paths from web/, query strings dropped). With the manifest it tells what a page's first visit
 * really downloads (e2e/tests/share-entry.spec.ts checks the share entry holds no app code).
 */
function chunkModules(): Plugin {
  return {
    name: 'takes-chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const modules: Record<string, string[]> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        modules[output.fileName] = Object.keys(output.modules)
          .map((id) => path.relative(webRoot, id.replace(/^\0/, '').split('?')[0] ?? id))
          .sort();
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/chunk-modules.json',
        source: `${JSON.stringify(modules, null, 2)}\n`,
      });
    },
  };
}

/**
 * Writes dist/.vite/page-preloads.json: for each lazily loaded page of the main app, its route and
 * the files it loads beyond the entry's. The server lists them as `<link rel="modulepreload">`
 * in the HTML of that page's address (server/src/http/spa.ts), so a first visit downloads the
 * page beside the app's bundle instead of after it has run.
 */
function pagePreloadList(): Plugin {
  const routerFile = path.join(webRoot, 'src', 'app', 'router.tsx');
  return {
    name: 'takes-page-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: ChunkInfo[] = [];
      let entry: string | undefined;
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks.push(output);
        if (output.isEntry && output.facadeModuleId === path.join(webRoot, 'index.html'))
          entry = output.fileName;
      }
      if (!entry) throw new Error('page-preloads: the main entry (index.html) has no chunk');
      const pages = lazyPagesOf(fs.readFileSync(routerFile, 'utf8'));
      const moduleId = (specifier: string) =>
        path.resolve(path.dirname(routerFile), `${specifier}.tsx`);
      const preloads: (PagePreload & { html?: string })[] = pagePreloads(
        pages,
        chunks,
        entry,
        moduleId,
      );
      // share.html (its own entry) loads the share page the same way, beyond its own files.
      const shareEntry = chunks.find(
        (chunk) => chunk.isEntry && chunk.facadeModuleId === path.join(webRoot, 'share.html'),
      );
      if (shareEntry) {
        const sharePage = pages.filter((page) => page.path === '/share/:hash');
        for (const preload of pagePreloads(sharePage, chunks, shareEntry.fileName, moduleId))
          preloads.push({ ...preload, html: 'share.html' });
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/page-preloads.json',
        source: `${JSON.stringify(preloads, null, 2)}\n`,
      });
    },
  };
}

/**
 * React Router's package points every import at its development build, whose only difference is
 * its dev warnings switched on (remix-run/react-router#12532, #14753: "intended to be temporary").
 * A build takes the production copy the package ships beside it: both entries, so the app has one
 * router.
 */
function reactRouterProduction() {
  const dist = path.join(
    path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
    'dist',
    'production',
    path.sep,
  );
  return [
    { find: /^react-router$/, replacement: `${dist}index.mjs` },
    { find: /^react-router\/dom$/, replacement: `${dist}dom-export.mjs` },
  ];
}

export default defineConfig(({ command }) => ({
  resolve: { alias: command === 'build' ? reactRouterProduction() : [] },
  plugins: [react(), tailwindcss(), chunkModules(), pagePreloadList()],
  server: {
    port: 5173,
    strictPort: true,
    // In dev the API runs on its own port; in production the server serves this SPA itself.
    proxy: { '/api': 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which files each entry loads (checked by e2e/tests/share-entry.spec.ts).
    manifest: true,
    rollupOptions: {
      input: {
        // The whole app.
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        // A share link's page on its own (`/share/:hash`): the server sends share.html there, so
        // a listener's first visit does not download the app around it.
        share: fileURLToPath(new URL('./share.html', import.meta.url)),
      },
    },
  },
}));
