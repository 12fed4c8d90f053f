import type { AudioQuality } from './player-types';

export interface QualitySelectViewProps {
  /** The qualities the version has; until they are known only Auto can be chosen. */
  available: ReadonlySet<string>;
  /** The original file's format (wav, flac, …), when known. */
  originalFormat?: string;
  value: AudioQuality;
  onChange: (quality: AudioQuality) => void;
}

/**
 * Auto, Lossless (FLAC) or Original, High (320k), Standard (128k); options other than Auto wait
 * for the version's qualities. 'Lossless' takes Original's place where the version has one (a
 * lossless original's FLAC: the same samples at about half the bytes, and playable where an
 * AIFF or ALAC original is not); Original stays for a lossy original (its MP3 or AAC itself).
 */
export function QualitySelectView({
  available,
  originalFormat,
  value,
  onChange,
}: QualitySelectViewProps) {
  return (
    <select
      aria-label="Quality"
      value={value}
      onChange={(event) => onChange(event.target.value as AudioQuality)}
      className="h-8 rounded-md border border-zinc-300 bg-white px-2 text-xs text-zinc-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <option value="auto">Auto</option>
      {available.has('lossless') || value === 'lossless' ? (
        <option value="lossless" disabled={!available.has('lossless')}>
          Lossless (FLAC)
        </option>
      ) : null}
      {!available.has('lossless') || value === 'original' ? (
        <option value="original" disabled={!available.has('original')}>
          {originalFormat ? `Original (${originalFormat.toUpperCase()})` : 'Original'}
        </option>
      ) : null}
      <option value="high" disabled={!available.has('high')}>
        High (320k)
      </option>
      <option value="standard" disabled={!available.has('standard')}>
        Standard (128k)
      </option>
    </select>
  );
}
