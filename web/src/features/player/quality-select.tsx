import { useVersionQualities } from './player-api';
import type { AudioQuality } from './player-types';
import { QualitySelectView } from './quality-select-view';

interface QualitySelectProps {
  versionId: string | undefined;
  value: AudioQuality;
  onChange: (quality: AudioQuality) => void;
}

/** The quality select with the version's qualities, asked from the API. */
export function QualitySelect({ versionId, value, onChange }: QualitySelectProps) {
  const qualities = useVersionQualities(versionId);
  return (
    <QualitySelectView
      available={new Set(qualities.data?.available ?? [])}
      originalFormat={qualities.data?.qualities.original?.format}
      value={value}
      onChange={onChange}
    />
  );
}
