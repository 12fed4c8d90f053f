import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

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

export default defineConfig({
  plugins: [react(), tailwindcss(), chunkModules()],
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
});
