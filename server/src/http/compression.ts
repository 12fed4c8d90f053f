import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Per request, so a low brotli quality: 4 compresses JSON nearly as well as gzip -9, many times
 * faster than brotli's maximum (11, which the build uses for the static files).
 */
export const BROTLI_QUALITY = 4;

/**
 * Answers up to this size are compressed in one synchronous call (brotli 4: about 0.3 ms for 20
 * to 60 KB of JSON here); larger ones stream through zlib's thread pool. The plugin's own
 * threshold on 2 cores is 8 KB, and a 20 KB search answer then took about 1–3 ms longer to
 * arrive for hops between the event loop and the pool, though it cost no more CPU.
 */
export const SYNC_COMPRESS_MAX_BYTES = 64 * 1024;

/** application/json and the structured-syntax +json types (problem+json, manifest+json…). */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** Whether an answer is JSON by its Content-Type (a missing one is not). */
export function isJsonType(contentType: unknown): boolean {
  return typeof contentType === 'string' && JSON_TYPE.test(contentType);
}

/**
 * The request header @fastify/compress reads as "leave this answer as it is". The gate below sets
 * it on every request whose answer it must not touch (the plugin would otherwise also compress
 * the text types mime-db calls compressible, and treats a missing Content-Type as JSON).
 */
const LEAVE_AS_IS = 'x-no-compression';

/** Whether the answer about to be sent may be compressed on the fly: JSON, whole, not encoded yet. */
function mayCompress(reply: FastifyReply): boolean {
  const encoding = reply.getHeader('content-encoding');
  return (
    isJsonType(reply.getHeader('content-type')) &&
    (encoding === undefined || encoding === 'identity') &&
    reply.statusCode !== 206 &&
    reply.getHeader('content-range') === undefined
  );
}

/**
 * Compresses JSON answers above 1 KB on the fly: brotli (quality 4) when the client takes it,
 * else gzip, with `Vary: Accept-Encoding`. Nothing else is touched: audio, images, archives and
 * downloads are sent as stored, a byte range is never compressed, the live-events stream
 * (hijacked) never passes through here, and the web app's files come precompressed from the build
 * (spa.ts). Request bodies are not decompressed: a compressed upload is refused as before.
 *
 * Call it before the routes are registered: the plugin adds itself to each route as it is added.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // An app-level onSend hook runs before the route-level one the plugin adds to each route.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!mayCompress(reply)) request.headers[LEAVE_AS_IS] = '1';
    return payload;
  });
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    syncThreshold: SYNC_COMPRESS_MAX_BYTES,
    customTypes: isJsonType,
    brotliOptions: {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    },
    zlibOptions: { level: 6 },
    globalDecompression: false,
  });
}
