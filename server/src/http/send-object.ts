import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '@takes/contract';
import { contentDisposition } from '../storage/s3';
import { resolveRange, type ObjectBody, type ObjectStore } from '../storage/object-store';
import { notFound } from './errors';
import { FileBody } from './file-body';
import { OpenFiles, type OpenFileLease } from './open-files';
import { ifRangeMatches, noneMatch, parseRange } from './range';

const TYPES: Record<string, string> = {
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.flac': 'audio/flac',
  '.aac': 'audio/aac',
  '.m4a': 'audio/mp4',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
};

export interface SendObjectOptions {
  contentType?: string;
  /**
   * A strong ETag derived from the object's content (e.g. its SHA-256, quoted). Without it the
   * store's own validator is used (S3's ETag); never the key's name.
   */
  etag?: string | undefined;
  downloadName?: string;
  cacheControl?: string;
  /**
   * Audio, downloads and covers: when the store says so (S3_PRESIGNED_REDIRECT), answer with a
   * redirect to a presigned URL, so the bytes go from the bucket to the browser, not through
   * Node. The caller has checked access already; Range and conditional requests then go to the
   * bucket with the browser. A page's own fetch() (`Sec-Fetch-Dest: empty`, as the compare view
   * loads both sides) still gets the bytes: following a redirect to another origin would need
   * the bucket to answer CORS and the CSP to allow connecting to it.
   */
  redirect?: boolean;
  /**
   * Send no validator (no ETag, no Last-Modified, no conditional answers): a blind test's audio,
   * where a validator shared by two options (the same bytes) or their times would tell them
   * apart.
   */
  noValidators?: boolean;
}

/** Ranges up to this size are read in one go and sent as a buffer (a player asks for 64 KB). */
const SMALL_RANGE_BYTES = 256 * 1024;

/** The local store's open files, shared by this process's responses (see OpenFiles). */
export const openFiles = new OpenFiles();

/** How long a presigned media URL lives: the spec's signed URLs last 60 seconds. */
export const PRESIGNED_URL_SECONDS = 60;

/**
 * Streams stored audio (an original or a rendition) with Range support, an ETag from its
 * content hash, 304 to a matching If-None-Match and If-Range honoured.
 */
export function sendStoredAudio(
  request: FastifyRequest,
  reply: FastifyReply,
  store: ObjectStore,
  audio: { key: string; contentType: string; etag: string | undefined },
): Promise<FastifyReply> {
  return sendObject(reply, store, audio.key, request.headers.range, {
    contentType: audio.contentType,
    etag: audio.etag,
    redirect: true,
  });
}

/**
 * Streams a stored object as an HTTP response, honouring a single byte Range, If-Range and
 * If-None-Match (both read from the request being answered).
 */
export async function sendObject(
  reply: FastifyReply,
  store: ObjectStore,
  key: string,
  rangeHeader: string | undefined,
  options: SendObjectOptions = {},
): Promise<FastifyReply> {
  if (options.redirect && store.presignedRedirect) reply.header('vary', 'Sec-Fetch-Dest');
  if (
    options.redirect &&
    store.presignedRedirect &&
    reply.request.headers['sec-fetch-dest'] !== 'empty'
  ) {
    return redirectToSigned(reply, store, key, {
      contentType: options.contentType ?? typeOf(key),
      downloadName: options.downloadName,
    });
  }
  // The local store's files come open with their size and time (kept for a second); others
  // are asked for their size first.
  const lease = store.localPath ? await openFiles.acquire(store.localPath(key)) : undefined;
  try {
    return await sendFound(reply, store, key, rangeHeader, options, lease);
  } catch (error) {
    await lease?.release();
    throw error;
  }
}

async function sendFound(
  reply: FastifyReply,
  store: ObjectStore,
  key: string,
  rangeHeader: string | undefined,
  options: SendObjectOptions,
  lease: OpenFileLease | null | undefined,
): Promise<FastifyReply> {
  const info =
    lease === undefined
      ? await store.head(key)
      : lease && { key, size: lease.size, lastModified: lease.mtime };
  if (!info) throw notFound();
  // A lease not handed to a body is given back before answering without one.
  const answer = async (sent: FastifyReply) => {
    await lease?.release();
    return sent;
  };
  const etag = options.noValidators ? undefined : (options.etag ?? info.etag);
  const headers = reply.request.headers;
  reply.header('accept-ranges', 'bytes');
  reply.header('cache-control', options.cacheControl ?? 'private, max-age=0, must-revalidate');
  if (!options.noValidators) reply.header('last-modified', info.lastModified.toUTCString());
  if (etag) {
    reply.header('etag', etag);
    if (noneMatch(headers['if-none-match'], etag)) return answer(reply.status(304).send());
  }
  // A Range whose If-Range names another representation is ignored: the whole object goes.
  const ifRange = options.noValidators ? undefined : headers['if-range'];
  const range = ifRangeMatches(Array.isArray(ifRange) ? ifRange.join(', ') : ifRange, {
    etag,
    lastModified: info.lastModified,
  })
    ? parseRange(rangeHeader, info.size)
    : undefined;
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${info.size}`);
    return answer(
      reply.status(416).send(errorBody('range_not_satisfiable', 'Requested range not satisfiable')),
    );
  }
  reply.header('content-type', options.contentType ?? typeOf(key));
  if (options.downloadName)
    reply.header('content-disposition', contentDisposition(options.downloadName));
  let object: ObjectBody | { body: Buffer; size: number; start: number; end: number };
  if (lease) {
    const { start, end } = resolveRange(info.size, range);
    const length = end - start + 1;
    if (length > 0 && length <= SMALL_RANGE_BYTES) {
      // A player's Range request: one read, answered as a buffer, without a stream.
      const body = Buffer.allocUnsafe(length);
      // fs.read on the descriptor: the FileHandle promise API costs more per call.
      const bytesRead = await new Promise<number>((resolve, reject) =>
        fs.read(lease.handle.fd, body, 0, length, start, (error, read) =>
          error ? reject(error) : resolve(read),
        ),
      );
      await lease.release();
      if (bytesRead !== length) throw new Error('The file ended before the expected length');
      object = { body, size: info.size, start, end };
    } else
      object = {
        body: new FileBody(lease.handle, start, end, () => lease.release()),
        size: info.size,
        start,
        end,
      };
  } else object = await store.get(key, range);
  reply.header('content-length', String(object.end - object.start + 1));
  if (range) {
    reply.header('content-range', `bytes ${object.start}-${object.end}/${object.size}`);
    reply.status(206);
  }
  return reply.send(object.body);
}

/**
 * A 302 to a presigned URL of the object (60 s) that names its type and, for a download, its
 * file name (sanitised as in our own Content-Disposition). Never cached: the URL expires.
 */
export async function redirectToSigned(
  reply: FastifyReply,
  store: ObjectStore,
  key: string,
  options: { contentType?: string | undefined; downloadName?: string | undefined },
): Promise<FastifyReply> {
  const url = await store.signedUrl(key, {
    expiresInSeconds: PRESIGNED_URL_SECONDS,
    ...(options.contentType ? { contentType: options.contentType } : {}),
    ...(options.downloadName ? { downloadName: options.downloadName } : {}),
  });
  reply.header('cache-control', 'no-store');
  return reply.redirect(url, 302);
}

function typeOf(key: string): string {
  return TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
}
