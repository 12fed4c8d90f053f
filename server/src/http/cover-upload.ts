import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { MAX_COVER_BYTES, REPO_MESSAGES } from '@takes/contract';
import type { ObjectStore } from '../storage/object-store';
import { guardUpload } from '../storage/scratch-file';
import { HttpError } from './errors';
import { sendObject } from './send-object';

/** @fastify/multipart limits for a cover upload: one file, one byte over the limit to notice it. */
export const COVER_UPLOAD_LIMITS = { files: 1, fields: 0, fileSize: MAX_COVER_BYTES + 1 };

/** A versioned cover URL never changes content: the browser may keep it. */
export const COVER_CACHE_CONTROL = 'private, max-age=31536000, immutable';

/** The `cover_image` part of a multipart request (400 'Please choose an image' without it). */
export async function coverFileOf(request: FastifyRequest): Promise<Readable> {
  const file: MultipartFile | undefined = await request.file();
  if (!file || file.fieldname !== 'cover_image')
    throw new HttpError(400, REPO_MESSAGES.coverRequired);
  // Fails (400) instead of hanging when the body ends inside the image.
  return guardUpload(file.file);
}

/** Sends a stored cover with its sniffed type. */
export function sendCover(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: ObjectStore,
  cover: { key: string; contentType: string },
  cacheControl: string = COVER_CACHE_CONTROL,
): Promise<FastifyReply> {
  return sendObject(reply, storage, cover.key, request.headers.range, {
    contentType: cover.contentType,
    cacheControl,
    redirect: true,
  });
}
