// "Preview as": the gain a streaming platform applies to a track on playback (loudness
// normalisation), worked out from the version's stored integrated loudness (LUFS, ITU-R BS.1770)
// and true peak (dBTP). Without schemas, so the web app and the tests share it (see roles.ts).
//
// What each platform documents differs. Spotify publishes its whole rule; the others publish a
// target at most, and what they do with quiet tracks comes from measurements and interviews.
// Each entry below says which parts are the platform's own words and which are a reading.
// The rules model each platform's default setting, track by track (album normalisation, which
// several apply to whole albums, keeps one gain for every track of the album).

export const PLATFORM_IDS = ['spotify', 'apple_music', 'youtube', 'tidal', 'amazon_music'] as const;
export type PlatformId = (typeof PLATFORM_IDS)[number];

export interface Platform {
  id: PlatformId;
  /** The platform's name as the UI shows it: 'Spotify will play this 3.2 dB quieter'. */
  label: string;
  /** The loudness it plays tracks at, in LUFS. */
  targetLufs: number;
  /** Whether it turns a track quieter than the target up (false: it only turns loud ones down). */
  raisesQuiet: boolean;
  /**
   * When it turns a quiet track up: the highest the track's true peak may reach after the gain,
   * in dBTP (the positive gain stops there). null: no peak rule (only with raisesQuiet false).
   */
  peakCeilingDbtp: number | null;
  /** Where the rule comes from. */
  source: string;
}

export const PLATFORMS: Record<PlatformId, Platform> = {
  // Spotify for Artists, "Loudness normalization":
  // https://support.spotify.com/us/artists/article/loudness-normalization/
  // Documented: tracks are adjusted to -14 LUFS (ITU 1770) in the default 'Normal' setting;
  // louder masters get negative gain; softer ones positive gain, leaving "1 dB headroom for lossy
  // encodings", with the worked example "-20 LUFS, true peak -5 dBFS: only lifted to -16 LUFS"
  // (+4 dB: the peak stops at -1 dBTP). A limiter is used only in the Premium 'Loud' (-11 LUFS)
  // setting, which this preview does not model.
  spotify: {
    id: 'spotify',
    label: 'Spotify',
    targetLufs: -14,
    raisesQuiet: true,
    peakCeilingDbtp: -1,
    source: 'https://support.spotify.com/us/artists/article/loudness-normalization/',
  },
  // Apple Music, Sound Check (on by default in current Apple Music apps). Apple documents Sound
  // Check as evening out playback volume and asks for at least 1 dB of true-peak headroom in
  // "Apple Digital Masters" (https://www.apple.com/apple-music/apple-digital-masters/); it does
  // not publish a target. -16 LUFS is the measured figure (e.g. MeterPlugs,
  // https://meterplugs.com/blog/2016/10/07/tidal-adds-loudness-normalization.html: "approximately
  // -16 LUFS for Apple's SoundCheck"). Reading: Sound Check turns quiet tracks up as well as
  // loud ones down, with no limiter, so the positive gain stops where the true peak reaches
  // -1 dBTP, the headroom Apple asks for.
  apple_music: {
    id: 'apple_music',
    label: 'Apple Music',
    targetLufs: -16,
    raisesQuiet: true,
    peakCeilingDbtp: -1,
    source: 'https://www.apple.com/apple-music/apple-digital-masters/',
  },
  // YouTube publishes no loudness specification. Its player shows the adjustment in
  // 'Stats for nerds' ("Volume / Normalized", "content loudness" in dB against its reference);
  // measured reference -14 LUFS (e.g. https://tuberlife.com/youtube-and-reference-loudness-level).
  // Observed, not documented: loud videos are turned down; quiet ones are never turned up.
  youtube: {
    id: 'youtube',
    label: 'YouTube',
    targetLufs: -14,
    raisesQuiet: false,
    peakCeilingDbtp: null,
    source: 'https://tuberlife.com/youtube-and-reference-loudness-level',
  },
  // TIDAL, as TIDAL told MeterPlugs when it added normalisation (ITU-R BS.1770-4, -14 LUFS,
  // "Tidal does not raise the level of music whose loudness is less than -14 LUFS"):
  // https://meterplugs.com/blog/2016/10/07/tidal-adds-loudness-normalization.html
  // TIDAL normalises albums as a whole by default; track by track here.
  tidal: {
    id: 'tidal',
    label: 'TIDAL',
    targetLufs: -14,
    raisesQuiet: false,
    peakCeilingDbtp: null,
    source: 'https://meterplugs.com/blog/2016/10/07/tidal-adds-loudness-normalization.html',
  },
  // Amazon Music publishes no normalisation rule. -14 LUFS is the widely measured target (e.g.
  // https://apu.software/amazon-music-loudness). Reading: with no published rule for turning
  // quiet tracks up, the preview only turns loud ones down rather than invent a boost.
  amazon_music: {
    id: 'amazon_music',
    label: 'Amazon Music',
    targetLufs: -14,
    raisesQuiet: false,
    peakCeilingDbtp: null,
    source: 'https://apu.software/amazon-music-loudness',
  },
};

export interface MeasuredLoudness {
  integratedLufs: number | null | undefined;
  truePeakDbfs: number | null | undefined;
}

export interface PlatformGain {
  /** dB the platform applies on playback: negative quieter, positive louder. */
  gainDb: number;
  /** The platform would turn it up further, but the true peak rule stops it. */
  limitedByPeak: boolean;
}

function finite(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * The gain `platform` applies to a track of this loudness, or null when it cannot be worked out:
 * no measured integrated loudness, or a quiet track on a platform whose boost depends on the true
 * peak when there is none.
 */
export function platformGain(
  platform: PlatformId,
  loudness: MeasuredLoudness,
): PlatformGain | null {
  const rule = PLATFORMS[platform];
  const { integratedLufs, truePeakDbfs } = loudness;
  if (!finite(integratedLufs)) return null;
  const wanted = rule.targetLufs - integratedLufs;
  if (wanted <= 0) return { gainDb: wanted, limitedByPeak: false };
  if (!rule.raisesQuiet) return { gainDb: 0, limitedByPeak: false };
  if (rule.peakCeilingDbtp === null) return { gainDb: wanted, limitedByPeak: false };
  if (!finite(truePeakDbfs)) return null;
  const room = Math.max(0, rule.peakCeilingDbtp - truePeakDbfs);
  return room < wanted
    ? { gainDb: room, limitedByPeak: true }
    : { gainDb: wanted, limitedByPeak: false };
}

/** Below this size (dB) a gain reads 'at its own level'. */
export const PLATFORM_GAIN_UNCHANGED_DB = 0.05;

/** 'Spotify will play this 3.2 dB quieter' / '… 1.5 dB louder' / '… at its own level'. */
export function platformGainSentence(label: string, gainDb: number): string {
  if (Math.abs(gainDb) < PLATFORM_GAIN_UNCHANGED_DB)
    return `${label} will play this at its own level`;
  const size = Math.abs(gainDb).toFixed(1);
  return `${label} will play this ${size} dB ${gainDb < 0 ? 'quieter' : 'louder'}`;
}

/** dB as a linear gain factor (−6 dB ≈ 0.5). */
export function dbToLinear(db: number): number {
  return 10 ** (db / 20);
}
