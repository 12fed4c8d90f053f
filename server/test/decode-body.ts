import zlib from 'node:zlib';

/** An answer's body as sent, decoded by its Content-Encoding (brotli, gzip or none). */
export function decodeBody(encoding: unknown, body: Buffer): Buffer {
  if (encoding === 'br') return zlib.brotliDecompressSync(body);
  if (encoding === 'gzip') return zlib.gunzipSync(body);
  return body;
}
