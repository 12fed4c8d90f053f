import { dbToLinear } from '@takes/contract';

// Two ways to put a platform's gain on the global player's one <audio> element:
// - 'web-audio': the element through a GainNode (turns down and up). Once an element feeds an
//   AudioContext it cannot leave it, so this is set up only when someone first previews, and
//   only when the element's audio comes from this origin: audio from another origin (a storage
//   bucket the server redirects media to) reaches Web Audio as silence.
// - 'volume': the element's volume scaled down (an element's volume cannot go above 1, so a
//   positive gain is not applied).
export type GainPath = 'web-audio' | 'volume';

/** Gain changes glide over about this long (seconds), so they never click. */
const GLIDE_SECONDS = 0.015;

interface GainRoute {
  context: AudioContext;
  gain: GainNode;
}

const routes = new WeakMap<HTMLAudioElement, GainRoute>();

export function webAudioAvailable(): boolean {
  return typeof window !== 'undefined' && typeof window.AudioContext === 'function';
}

/** The element's GainNode, made on first use; null when Web Audio cannot take the element. */
export function gainRouteOf(
  audio: HTMLAudioElement,
  createContext: () => AudioContext = () => new AudioContext(),
): GainRoute | null {
  const existing = routes.get(audio);
  if (existing) return existing;
  let context: AudioContext | null = null;
  try {
    context = createContext();
    const source = context.createMediaElementSource(audio);
    const gain = context.createGain();
    source.connect(gain);
    gain.connect(context.destination);
    const route = { context, gain };
    routes.set(audio, route);
    // A suspended context (autoplay rules, an interruption) would leave the element silent.
    const wake = () => {
      if (route.context.state !== 'running') void route.context.resume().catch(() => undefined);
    };
    audio.addEventListener('play', wake);
    wake();
    return route;
  } catch (error) {
    console.error('The preview gain could not be set up:', error);
    void context?.close().catch(() => undefined);
    return null;
  }
}

export function setRouteGain(route: GainRoute, db: number): void {
  const { context, gain } = route;
  const now = context.currentTime;
  gain.gain.cancelScheduledValues(now);
  gain.gain.setTargetAtTime(dbToLinear(db), now, GLIDE_SECONDS);
}

/**
 * Scales the element's volume by a factor (at most 1) and keeps it scaled when the player sets
 * the volume again (the volume slider): the player's value is taken as the new base.
 */
export class VolumeScaler {
  private base: number;
  private applied: number;
  private factor = 1;

  constructor(private readonly audio: HTMLAudioElement) {
    this.base = audio.volume;
    this.applied = audio.volume;
    audio.addEventListener('volumechange', this.onVolumeChange);
  }

  setGainDb(db: number): void {
    this.factor = Math.min(1, dbToLinear(db));
    this.apply();
  }

  dispose(): void {
    this.audio.removeEventListener('volumechange', this.onVolumeChange);
    this.factor = 1;
    this.apply();
  }

  private readonly onVolumeChange = () => {
    // Our own change echoes back; anything else is the player's new volume.
    if (Math.abs(this.audio.volume - this.applied) < 1e-6) return;
    this.base = this.audio.volume;
    this.apply();
  };

  private apply(): void {
    this.applied = Math.min(1, Math.max(0, this.base * this.factor));
    this.audio.volume = this.applied;
  }
}

const OWN_MEDIA_SOURCES = new Set(["'self'", 'blob:', 'data:']);

/**
 * Whether a media element may get this audio from elsewhere: the answer varies with
 * Sec-Fetch-Dest (the server redirects media elements to a bucket), or the page's policy allows
 * media from another origin.
 */
export function mediaMayComeFromElsewhere(headers: Headers): boolean {
  const vary = (headers.get('vary') ?? '').toLowerCase().split(',');
  if (vary.some((name) => name.trim() === 'sec-fetch-dest')) return true;
  const policy = headers.get('content-security-policy') ?? '';
  const mediaSrc = policy
    .split(';')
    .map((directive) => directive.trim().split(/\s+/))
    .find(([name]) => name?.toLowerCase() === 'media-src');
  return (
    mediaSrc !== undefined && mediaSrc.slice(1).some((source) => !OWN_MEDIA_SOURCES.has(source))
  );
}

let ownOriginProbe: Promise<boolean | null> | null = null;

/** true: own origin; false: maybe elsewhere; null: the request failed. */
async function probeOwnOrigin(streamUrl: string, fetchImpl: typeof fetch): Promise<boolean | null> {
  try {
    const response = await fetchImpl(streamUrl, {
      headers: { Range: 'bytes=0-0' },
      credentials: 'same-origin',
    });
    void response.body?.cancel().catch(() => undefined);
    return response.ok ? !mediaMayComeFromElsewhere(response.headers) : null;
  } catch {
    return null;
  }
}

/**
 * Whether the player's audio comes from this origin, asked once with a one-byte request for
 * `streamUrl` (a failed request counts as 'no', and is asked again next time).
 */
export async function mediaFromOwnOrigin(
  streamUrl: string,
  fetchImpl: typeof fetch = fetch,
): Promise<boolean> {
  const probe = ownOriginProbe ?? probeOwnOrigin(streamUrl, fetchImpl);
  ownOriginProbe = probe;
  const own = await probe;
  if (own === null && ownOriginProbe === probe) ownOriginProbe = null;
  return own ?? false;
}

/** Test-only: forget the probe's answer. */
export function resetOwnOriginProbe(): void {
  ownOriginProbe = null;
}
