import { describe, expect, it, vi } from 'vitest';
import {
  effectiveQuality,
  needsAuthenticatedFetch,
  preflightAudio,
  resolveAudioSource,
  streamUrlWithQuality,
  trackStreamUrl,
} from './audio-source';
import { formatTime } from './format-time';

const URL_A = '/api/versions/a/stream?quality=high';

function answering(response: Response) {
  return vi.fn<typeof fetch>(() => Promise.resolve(response));
}

describe('preflightAudio', () => {
  it('returns the URL when the one-byte range answers', async () => {
    const fetchMock = answering(new Response('x', { status: 206 }));
    await expect(preflightAudio(URL_A, new AbortController().signal, fetchMock)).resolves.toBe(
      URL_A,
    );
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).get('Range')).toBe('bytes=0-0');
  });

  it("maps 401 to 'Authentication required'", async () => {
    const fetchMock = answering(new Response('{}', { status: 401, statusText: 'Unauthorized' }));
    await expect(preflightAudio(URL_A, new AbortController().signal, fetchMock)).rejects.toThrow(
      'Authentication required',
    );
  });

  it("maps other statuses to 'API error: {status} {statusText}'", async () => {
    const fetchMock = answering(new Response('{}', { status: 500, statusText: 'Server Error' }));
    await expect(preflightAudio(URL_A, new AbortController().signal, fetchMock)).rejects.toThrow(
      'API error: 500 Server Error',
    );
  });

  it("maps network failures to 'Failed to load audio: {details}'", async () => {
    const fetchMock = vi.fn<typeof fetch>(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(preflightAudio(URL_A, new AbortController().signal, fetchMock)).rejects.toThrow(
      'Failed to load audio: Failed to fetch',
    );
  });

  it("times out with 'Request timed out. Please try again.'", async () => {
    const fetchMock = vi.fn<typeof fetch>(
      (_url, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          ),
        ),
    );
    await expect(
      preflightAudio(URL_A, new AbortController().signal, fetchMock, 10),
    ).rejects.toThrow('Request timed out. Please try again.');
  });

  it('re-throws an abort from the caller as an AbortError', async () => {
    const controller = new AbortController();
    const fetchMock = vi.fn<typeof fetch>(
      (_url, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          ),
        ),
    );
    const pending = preflightAudio(URL_A, controller.signal, fetchMock);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('resolveAudioSource', () => {
  it('falls back to the direct URL when asked to', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fetchMock = answering(new Response('{}', { status: 403, statusText: 'Forbidden' }));
    await expect(
      resolveAudioSource(
        URL_A,
        { signal: new AbortController().signal, fallbackToDirectUrl: true },
        fetchMock,
      ),
    ).resolves.toBe(URL_A);
  });

  it('throws without the fallback', async () => {
    const fetchMock = answering(new Response('{}', { status: 403, statusText: 'Forbidden' }));
    await expect(
      resolveAudioSource(URL_A, { signal: new AbortController().signal }, fetchMock),
    ).rejects.toThrow('API error: 403 Forbidden');
  });

  it('skips the check for bypassAuth and for URLs that need no session', async () => {
    const fetchMock = answering(new Response('x', { status: 206 }));
    const signal = new AbortController().signal;
    await resolveAudioSource(URL_A, { signal, bypassAuth: true }, fetchMock);
    await resolveAudioSource('https://cdn.example/a.mp3', { signal }, fetchMock);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('quality and URLs', () => {
  it('Auto picks standard on mobile and high on desktop', () => {
    expect(effectiveQuality('auto', true)).toBe('standard');
    expect(effectiveQuality('auto', false)).toBe('high');
    expect(effectiveQuality('original', true)).toBe('original');
  });

  it('sets the quality parameter on version streams only', () => {
    expect(streamUrlWithQuality('/api/versions/a/stream', 'standard')).toBe(
      '/api/versions/a/stream?quality=standard',
    );
    expect(streamUrlWithQuality('/api/versions/a/stream?quality=high&token=t', 'original')).toBe(
      '/api/versions/a/stream?quality=original&token=t',
    );
    // A collection link's item: the server falls back to the renditions the link may stream.
    expect(streamUrlWithQuality('/api/collection-links/K3y/items/i1/stream', 'high')).toBe(
      '/api/collection-links/K3y/items/i1/stream?quality=high',
    );
    expect(streamUrlWithQuality('/api/collection-links/K3y/items/i1/download', 'high')).toBe(
      '/api/collection-links/K3y/items/i1/download',
    );
    expect(streamUrlWithQuality('https://cdn.example/a.mp3', 'high')).toBe(
      'https://cdn.example/a.mp3',
    );
  });

  it("builds a track's URL at the chosen quality, Auto resolved for the device", () => {
    expect(trackStreamUrl('/api/versions/a/stream', 'auto', false)).toBe(
      '/api/versions/a/stream?quality=high',
    );
    expect(trackStreamUrl('/api/versions/a/stream', 'auto', true)).toBe(
      '/api/versions/a/stream?quality=standard',
    );
    expect(trackStreamUrl('/api/versions/a/stream', 'original', true)).toBe(
      '/api/versions/a/stream?quality=original',
    );
    expect(trackStreamUrl('https://cdn.example/a.mp3', 'standard', false)).toBe(
      'https://cdn.example/a.mp3',
    );
  });

  it('knows which sources need the session', () => {
    expect(needsAuthenticatedFetch('/api/versions/a/stream')).toBe(true);
    expect(needsAuthenticatedFetch('/api/proxy-file?x=1')).toBe(true);
    expect(needsAuthenticatedFetch('https://cdn.example/a.mp3')).toBe(false);
  });
});

describe('formatTime', () => {
  it("shows m:ss, or '--:--' when unknown", () => {
    expect(formatTime(0)).toBe('0:00');
    expect(formatTime(9.9)).toBe('0:09');
    expect(formatTime(75)).toBe('1:15');
    expect(formatTime(null)).toBe('--:--');
    expect(formatTime(Number.NaN)).toBe('--:--');
  });
});
