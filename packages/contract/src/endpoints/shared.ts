import { z } from 'zod';
import { empty, type AuthScheme } from '../endpoint';

/** Routes behind `requireUser`: the guard admits the session cookie or a desktop/CLI bearer token. */
export const signedIn = ['session', 'desktopToken'] as const satisfies readonly AuthScheme[];
/** Routes anyone may call. */
export const publicAccess = [] as const satisfies readonly AuthScheme[];
/** Routes opened by a share link's key (the `:hash` in the path). */
export const shareLink = ['shareKey'] as const satisfies readonly AuthScheme[];

/** What stored audio is sent as: the original's sniffed type, or MP3 for the renditions. */
export const AUDIO_MEDIA_TYPES = [
  'audio/mpeg',
  'audio/wav',
  'audio/aiff',
  'audio/flac',
  'audio/aac',
  'audio/mp4',
  'application/octet-stream',
] as const;

/** Stored images (avatars, covers) are sent with their sniffed type. */
export const IMAGE_MEDIA_TYPES = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'application/octet-stream',
] as const;

/** Stored objects answer a matching If-None-Match with 304 and no body. */
export const notModified = empty('Not modified: the If-None-Match ETag still matches.');

/** `{ ok: true }`, the answer of an action with nothing else to say. */
export const okSchema = z.object({ ok: z.literal(true) });

/** The bearer token a desktop app or CLI may also pass as `?token=` (audio elements cannot set headers). */
export const tokenQuery = z.string().optional();
