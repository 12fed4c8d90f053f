import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentDisposition } from '../storage/s3';
import type { ObjectStore } from '../storage/object-store';
import { notFound } from './errors';
import { parseRange } from './range';

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
  /** A strong validator for the object (stored objects never change under one key). */
  etag?: string;
  ifNoneMatch?: string | undefined;
  downloadName?: string;
  cacheControl?: string;
}

/**
 * Streams stored audio (an original or a rendition) with Range support and an ETag taken from
 * its content-addressed key, answering 304 to a matching If-None-Match.
 */
export function sendStoredAudio(
  request: FastifyRequest,
  reply: FastifyReply,
  store: ObjectStore,
  audio: { key: string; contentType: string },
): Promise<FastifyReply> {
  return sendObject(reply, store, audio.key, request.headers.range, {
    contentType: audio.contentType,
    etag: `"${audio.key.split('/').pop() ?? audio.key}"`,
    ifNoneMatch: request.headers['if-none-match'],
  });
}

/** Streams a stored object as an HTTP response, honouring a single byte Range. */
export async function sendObject(
  reply: FastifyReply,
  store: ObjectStore,
  key: string,
  rangeHeader: string | undefined,
  options: SendObjectOptions = {},
): Promise<FastifyReply> {
  const info = await store.head(key);
  if (!info) throw notFound();
  const range = parseRange(rangeHeader, info.size);
  reply.header('accept-ranges', 'bytes');
  if (options.etag) {
    reply.header('etag', options.etag);
    if (
      options.ifNoneMatch &&
      options.ifNoneMatch.split(',').some((tag) => tag.trim() === options.etag)
    ) {
      return reply.status(304).send();
    }
  }
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${info.size}`);
    return reply.status(416).send({ error: 'Requested range not satisfiable' });
  }
  reply.header(
    'content-type',
    options.contentType ?? TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream',
  );
  reply.header('cache-control', options.cacheControl ?? 'private, max-age=0, must-revalidate');
  reply.header('last-modified', info.lastModified.toUTCString());
  if (options.downloadName)
    reply.header('content-disposition', contentDisposition(options.downloadName));
  const object = await store.get(key, range);
  reply.header('content-length', String(object.end - object.start + 1));
  if (range) {
    reply.header('content-range', `bytes ${object.start}-${object.end}/${object.size}`);
    reply.status(206);
  }
  return reply.send(object.body);
}
