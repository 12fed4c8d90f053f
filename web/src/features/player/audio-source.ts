import type { AudioQuality } from './player-types';

/** The player's request time-out: 10 s. */
export const AUDIO_REQUEST_TIMEOUT_MS = 10_000;

// A version's stream, a share link's audio and a collection link item's stream take `?quality=`.
const STREAM_PATH =
  /\/api\/(?:versions\/[^/]+\/stream|links\/hash\/[^/]+\/audio|collection-links\/[^/]+\/items\/[^/]+\/stream)$/;

/** Sources served by our API (or the storage host) need the session, so they are checked first. */
export function needsAuthenticatedFetch(url: string): boolean {
  return url.includes('/stream') || url.includes('/proxy-file') || url.includes('/storage/');
}

export function isMobileDevice(): boolean {
  if (typeof navigator === 'undefined') return false;
  return /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent);
}

/** Auto picks standard on mobile and high on desktop. */
export function effectiveQuality(
  quality: AudioQuality,
  mobile: boolean,
): Exclude<AudioQuality, 'auto'> {
  if (quality !== 'auto') return quality;
  return mobile ? 'standard' : 'high';
}

/** Adds the quality parameter to a version's stream URL; other URLs are returned as they are. */
export function streamUrlWithQuality(audioUrl: string, quality: Exclude<AudioQuality, 'auto'>) {
  const [path = '', query = ''] = audioUrl.split('?', 2);
  if (!STREAM_PATH.test(path)) return audioUrl;
  const params = new URLSearchParams(query);
  params.set('quality', quality);
  return `${path}?${params.toString()}`;
}

/** The URL the player gives the media element for a track at a quality (before the session check). */
export function trackStreamUrl(
  audioUrl: string,
  quality: AudioQuality,
  mobile: boolean = isMobileDevice(),
): string {
  return streamUrlWithQuality(audioUrl, effectiveQuality(quality, mobile));
}

/**
 * Checks that the session may read the audio with a one-byte range request, so a long file is never
 * downloaded into memory; the media element then streams the URL itself with the same cookie.
 * Throws fixed messages people can read ('Authentication required', 'Request timed out. Please
 * try again.', 'Failed to load audio: …'); an abort from the caller is re-thrown as it is.
 */
export async function preflightAudio(
  url: string,
  signal: AbortSignal,
  fetchImpl: typeof fetch = fetch,
  timeoutMs = AUDIO_REQUEST_TIMEOUT_MS,
): Promise<string> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  const onAbort = () => timeout.abort();
  signal.addEventListener('abort', onAbort);
  try {
    const response = await fetchImpl(url, {
      headers: { Range: 'bytes=0-0' },
      credentials: 'same-origin',
      signal: timeout.signal,
    });
    // Only the status matters; drop the body so the connection is released.
    void response.body?.cancel().catch(() => undefined);
    if (response.status === 401) throw new Error('Authentication required');
    if (!response.ok) throw new Error(`API error: ${response.status} ${response.statusText}`);
    return url;
  } catch (error) {
    if (signal.aborted) throw new DOMException('The load was replaced', 'AbortError');
    if (timeout.signal.aborted) throw new Error('Request timed out. Please try again.');
    if (
      error instanceof Error &&
      (error.message === 'Authentication required' || error.message.startsWith('API error:'))
    ) {
      throw error;
    }
    const details = error instanceof Error ? error.message : String(error);
    throw new Error(`Failed to load audio: ${details}`);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * The URL to give the media element: checked with the session first, and with fallbackToDirectUrl the
 * plain URL when that check fails (the element may still manage, and its own error is handled).
 */
export async function resolveAudioSource(
  url: string,
  options: { signal: AbortSignal; bypassAuth?: boolean; fallbackToDirectUrl?: boolean },
  fetchImpl: typeof fetch = fetch,
): Promise<string> {
  if (options.bypassAuth || !needsAuthenticatedFetch(url)) return url;
  try {
    return await preflightAudio(url, options.signal, fetchImpl);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    if (!options.fallbackToDirectUrl) throw error;
    console.error('Audio preflight failed, using the direct URL:', error);
    return url;
  }
}
