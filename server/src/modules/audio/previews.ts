import { downsampled, parseJson, waveformJson, type WaveformInfo } from './audio-view';

/** Peaks a version in a list carries: what a row, card or review waveform draws (200 bars). */
export const LIST_PEAKS = 200;

/** A feed card draws at most this many bars: the overview is cut to it (a tenth of the bytes). */
export const FEED_WAVEFORM_POINTS = 300;

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
  const pairs = downsampled(
    waveformJson(waveform, null) ?? { min: [], max: [], duration: 0 },
    FEED_WAVEFORM_POINTS,
  );
  return {
    peaks: JSON.stringify(fewerPeaks(waveform.overview, LIST_PEAKS)),
    pairs: JSON.stringify({ min: pairs.min, max: pairs.max }),
    duration: waveform.duration ?? null,
  };
}
