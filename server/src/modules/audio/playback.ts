import type { ProcessedAudioColumns } from '../../db/schema';
import { NotFound } from '../../errors';
import { AUDIO_MIME, type AudioFormat } from '../../media/audio-type';
import { parseJson, type Renditions } from './audio-view';
import { originalHashOf } from './storage-keys';

/**
 * The qualities a listener may ask for: the stored original, its FLAC ('Lossless', made for
 * lossless originals) or one of the two MP3 renditions.
 */
export type Quality = 'original' | 'lossless' | 'high' | 'standard';

export interface StoredAudio {
  key: string;
  contentType: string;
  format: string;
  size: number | null;
  /**
   * A strong ETag from the content's SHA-256 (an original's key is its hash; a rendition's is
   * recorded by processing). Undefined for a rendition processed before hashes were recorded:
   * the store's own validator is used then, if it has one.
   */
  etag: string | undefined;
}

const KNOWN_EXTENSIONS = new Set(['wav', 'mp3', 'aac', 'm4a', 'flac', 'ogg', 'aiff']);

/**
 * What to stream for a quality: its rendition, or the original until renditions exist (and for
 * 'lossless' when the original has none: a lossy original is itself the best there is).
 */
export function pickAudio(
  v: Pick<ProcessedAudioColumns, 'renditions' | 'original_key' | 'original_format' | 'status'> & {
    original_size: number | null;
  },
  quality: Quality,
): StoredAudio {
  const renditions = parseJson<Renditions>(v.renditions, {});
  const lossless = renditions.lossless;
  if (quality === 'lossless' && lossless)
    return {
      key: lossless.key,
      contentType: 'audio/flac',
      format: 'flac',
      size: lossless.size,
      etag: lossless.sha256 ? `"${lossless.sha256}"` : undefined,
    };
  if ((quality === 'high' || quality === 'standard') && renditions[quality]) {
    const r = renditions[quality];
    return {
      key: r.key,
      contentType: 'audio/mpeg',
      format: 'mp3',
      size: r.size,
      etag: r.sha256 ? `"${r.sha256}"` : undefined,
    };
  }
  if (!v.original_key) throw new NotFound('This version has no stored audio');
  if ((quality === 'high' || quality === 'standard') && v.status === 'failed')
    throw new NotFound('This quality is not available');
  const format = (v.original_format ?? 'wav') as AudioFormat;
  const hash = originalHashOf(v.original_key);
  return {
    key: v.original_key,
    contentType: AUDIO_MIME[format] ?? 'application/octet-stream',
    format,
    size: v.original_size,
    etag: hash ? `"${hash}"` : undefined,
  };
}

/** The download's extension: its format's, or for AIFF the one its file had (.aif, .aiff, .aifc). */
function extensionOf(format: string, originalName: string | null): string {
  if (format === 'aiff') {
    const own = /\.(aif|aiff|aifc)$/i.exec(originalName ?? '')?.[1];
    return own ? own.toLowerCase() : 'aiff';
  }
  return KNOWN_EXTENSIONS.has(format) ? format : 'wav';
}

/**
 * The original as a download named after its project: the project name, a dash, the first 8
 * characters of the version id, its extension.
 */
export function downloadOf(
  v: Parameters<typeof pickAudio>[0] & { id: string; original_name: string | null },
  projectName: string,
): StoredAudio & { fileName: string } {
  if (!v.original_key) throw new NotFound('Version not found');
  const audio = pickAudio(v, 'original');
  const ext = extensionOf(audio.format, v.original_name);
  // Characters file systems refuse, and control characters, become spaces.
  const safeName =
    [...projectName]
      .map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? ' ' : c))
      .join('')
      .trim() || 'Takes';
  return { ...audio, fileName: `${safeName}-${v.id.slice(0, 8)}.${ext}` };
}
