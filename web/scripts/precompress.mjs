// Writes a brotli (.br, maximum quality) and a gzip (.gz, level 9) copy next to every compressible
// file of the built web app, once, at build time; the server sends them as they are
// (@fastify/static's preCompressed) instead of compressing on each request. A copy is written only
// when it is smaller than the original. Images and fonts are already compressed and left alone.
//
// Usage: node scripts/precompress.mjs [dir]   (dir defaults to web/dist)
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** What is worth compressing: text formats. Not .map (no source maps are served). */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest|xml)$/i;

/** @param {string} dir */
async function* filesUnder(dir) {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    // Build records (.vite/manifest.json and the like) are read from disk, never served.
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * @param {string} file
 * @param {string} extension '.br' or '.gz'
 * @param {Buffer} original
 * @param {Buffer} compressed
 * @returns {Promise<number>} the bytes a client accepting this encoding gets
 */
async function writeIfSmaller(file, extension, original, compressed) {
  const target = file + extension;
  if (compressed.length >= original.length) {
    // A copy left from an earlier build of a file that has since changed would be served.
    await fs.rm(target, { force: true });
    return original.length;
  }
  await fs.writeFile(target, compressed);
  return compressed.length;
}

/**
 * Compresses every compressible file under `dir`.
 * @param {string} dir
 * @returns {Promise<{ files: number, bytes: number, br: number, gz: number }>} the files, their
 *   bytes, and the bytes sent to a client taking brotli, or gzip

 */
export async function precompress(dir) {
  const totals = { files: 0, bytes: 0, br: 0, gz: 0 };
  const jobs = [];
  for await (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    jobs.push(
      (async () => {
        const original = await fs.readFile(file);
        const [br, gz] = await Promise.all([
          brotli(original, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: original.length,
            },
          }),
          gzip(original, { level: zlib.constants.Z_BEST_COMPRESSION }),
        ]);
        totals.files += 1;
        totals.bytes += original.length;
        totals.br += await writeIfSmaller(file, '.br', original, br);
        totals.gz += await writeIfSmaller(file, '.gz', original, gz);
      })(),
    );
  }
  await Promise.all(jobs);
  return totals;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(
    process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist'),
  );
  const { files, bytes, br, gz } = await precompress(dir);
  const kb = (/** @type {number} */ n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `precompress: ${files} files in ${path.relative(process.cwd(), dir) || '.'}, ${kb(bytes)} → ${kb(br)} brotli, ${kb(gz)} gzip`,
  );
}
