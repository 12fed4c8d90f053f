import {
  PLATFORMS,
  platformGain,
  platformGainSentence,
  type MeasuredLoudness,
  type PlatformId,
} from '@takes/contract';

/** The stored loudness as versions carry it (null before processing has measured it). */
export interface StoredLoudness {
  loudness: { integrated_lufs: number | null; true_peak_dbfs: number | null } | null;
}

export function measuredLoudness(item: StoredLoudness): MeasuredLoudness {
  return {
    integratedLufs: item.loudness?.integrated_lufs ?? null,
    truePeakDbfs: item.loudness?.true_peak_dbfs ?? null,
  };
}

export type PlatformPreview =
  | { available: true; gainDb: number; limitedByPeak: boolean; sentence: string }
  | { available: false; sentence: string };

export const NO_LOUDNESS_SENTENCE = 'No loudness measurement yet, so there is nothing to preview.';

/** What `platform` would do to this item, in words and dB. */
export function previewOf(platform: PlatformId, item: StoredLoudness): PlatformPreview {
  const gain = platformGain(platform, measuredLoudness(item));
  if (!gain) return { available: false, sentence: NO_LOUDNESS_SENTENCE };
  return {
    available: true,
    gainDb: gain.gainDb,
    limitedByPeak: gain.limitedByPeak,
    sentence: platformGainSentence(PLATFORMS[platform].label, gain.gainDb),
  };
}

/** Why a quiet track is not turned all the way up: its true peak. */
export function peakNote(platform: PlatformId): string {
  const { label, peakCeilingDbtp } = PLATFORMS[platform];
  return `Held back by its true peak: ${label} turns a quiet track up only until its peak reaches ${formatDb(peakCeilingDbtp ?? 0)} dBTP.`;
}

/** dB with a sign and one decimal, for data attributes: '-6.0', '+2.0', '0.0'. */
export function signedDb(db: number): string {
  const rounded = Math.round(db * 10) / 10;
  if (rounded === 0) return '0.0';
  return `${rounded > 0 ? '+' : '-'}${Math.abs(rounded).toFixed(1)}`;
}

/** dB with a typographic minus, as the UI writes it: '−1'. */
function formatDb(db: number): string {
  return db < 0 ? `−${Math.abs(db)}` : String(db);
}
