import type { BounceWaveform } from '@takes/contract';
import { downsampled, parseJson, waveformJson, type WaveformInfo } from './audio-view';

/** Peaks a version in a list carries: what a row, card or review waveform draws (200 bars). */
export const LIST_PEAKS = 200;

/**
 * A feed card draws at most this many bars (the spec's default peak count; a card is narrower
 * than 100 bars of 3 px), each to 1/100 of full scale (half a pixel at the card's 96 px): a
 * card's waveform is about 1 KB of JSON, so 50 cards are a small answer to validate and send.
 */
export const FEED_WAVEFORM_POINTS = 100;

// `|| 0`: no -0 (JSON writes it as 0, so a stored preview would differ from a fresh one).
const hundredths = (value: number) => Math.round(value * 100) / 100 || 0;

/** What a feed card draws of a waveform: FEED_WAVEFORM_POINTS min/max pairs, in hundredths. */
export function feedPairs(waveform: BounceWaveform): BounceWaveform {
  const fewer = downsampled(waveform, FEED_WAVEFORM_POINTS);
  return {
    min: fewer.min.map(hundredths),
    max: fewer.max.map(hundredths),
    duration: waveform.duration,
  };
}

/**
 * The small waveforms lists and feeds draw, kept beside a version in `version_previews`
 * (migration 0020) so a list never parses the full overview: `peaks` is LIST_PEAKS peaks (JSON
 * array), `pairs` FEED_WAVEFORM_POINTS min/max pairs (JSON `{ min, max }`), `duration` the
 * decoded length the waveform carries.
 */
export interface AudioPreview {
  peaks: string;
  pairs: string;
  duration: number | null;
}

/** The loudest of each bucket: `points` peaks from the stored overview (1,000). */
export function fewerPeaks(peaks: number[], points: number): number[] {
  if (peaks.length <= points) return peaks;
  return Array.from({ length: points }, (_, i) => {
    const from = Math.floor((i * peaks.length) / points);
    const to = Math.floor(((i + 1) * peaks.length) / points);
    let max = 0;
    for (let k = from; k < to; k++) max = Math.max(max, peaks[k] ?? 0);
    return max;
  });
}

/** The preview of a stored waveform (JSON text); null when there is none (yet). */
export function previewOf(waveformText: string | null): AudioPreview | null {
  const waveform = parseJson<WaveformInfo | null>(waveformText, null);
  if (!waveform || !Array.isArray(waveform.overview)) return null;
  const pairs = feedPairs(waveformJson(waveform, null) ?? { min: [], max: [], duration: 0 });
  return {
    peaks: JSON.stringify(fewerPeaks(waveform.overview, LIST_PEAKS)),
    pairs: JSON.stringify({ min: pairs.min, max: pairs.max }),
    duration: waveform.duration ?? null,
  };
}
