import type { PlatformId } from '@takes/contract';
import { useState } from 'react';
import { PlatformSelect } from './platform-select';
import {
  peakNote,
  previewOf,
  signedDb,
  type PlatformPreview,
  type StoredLoudness,
} from './preview-logic';

type Side = 'A' | 'B';
const SIDES: readonly Side[] = ['A', 'B'];

export const COMPARE_PREVIEW_HINT =
  'Hear A and B as one platform would play them, each with its own gain, in place of Match loudness.';

export interface ComparePlatformPreviewState {
  platform: PlatformId | null;
  setPlatform: (platform: PlatformId | null) => void;
  previews: Record<Side, PlatformPreview> | null;
  /** Each side's gain in dB for the compare engine (0 for a side with no measurement), or null. */
  gainDb: Record<Side, number> | null;
}

/** The platform chosen for the compare view, and what it does to each side. */
export function useComparePlatformPreview(
  a: StoredLoudness,
  b: StoredLoudness,
): ComparePlatformPreviewState {
  const [platform, setPlatform] = useState<PlatformId | null>(null);
  const previews = platform ? { A: previewOf(platform, a), B: previewOf(platform, b) } : null;
  const gainDb = previews
    ? {
        A: previews.A.available ? previews.A.gainDb : 0,
        B: previews.B.available ? previews.B.gainDb : 0,
      }
    : null;
  return { platform, setPlatform, previews, gainDb };
}

/**
 * 'Preview as' on the compare view: one platform for both sides, one sentence per side
 * ('A: Spotify will play this 6.0 dB quieter'). It takes the place of 'Match loudness': choosing
 * a platform turns matching off, and turning matching on shows 'Original level' here again.
 */
export function ComparePlatformPreview({
  preview,
  matchLoudness,
  setMatchLoudness,
}: {
  preview: ComparePlatformPreviewState;
  matchLoudness: boolean;
  setMatchLoudness: (match: boolean) => void;
}) {
  const shown = matchLoudness ? null : preview.platform;
  const previews = shown ? preview.previews : null;
  return (
    <div
      data-testid="compare-platform-preview"
      data-platform={shown ?? 'off'}
      className="space-y-2 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <PlatformSelect
        value={shown}
        onChange={(platform) => {
          preview.setPlatform(platform);
          if (platform) setMatchLoudness(false);
        }}
      />
      <div aria-live="polite">
        {shown && previews ? (
          <ul className="space-y-1 text-sm">
            {SIDES.map((side) => {
              const each = previews[side];
              return (
                <li
                  key={side}
                  data-side={side}
                  data-applied-gain-db={signedDb(each.available ? each.gainDb : 0)}
                  className="text-zinc-900 dark:text-zinc-100"
                >
                  <span className="font-medium">
                    {side}: {each.sentence}
                  </span>
                  {each.available && each.limitedByPeak ? (
                    <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                      {peakNote(shown)}
                    </span>
                  ) : null}
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="text-xs text-zinc-600 dark:text-zinc-400">{COMPARE_PREVIEW_HINT}</p>
        )}
      </div>
    </div>
  );
}
