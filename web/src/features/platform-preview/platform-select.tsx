import { PLATFORM_IDS, PLATFORMS, type PlatformId } from '@takes/contract';
import { useId } from 'react';

export const PREVIEW_LABEL = 'Preview as';
export const PREVIEW_OFF_LABEL = 'Original level';

const selectClass =
  'rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

function isPlatformId(value: string): value is PlatformId {
  return (PLATFORM_IDS as readonly string[]).includes(value);
}

/** 'Preview as': Original level, or one of the platforms. */
export function PlatformSelect({
  value,
  onChange,
}: {
  value: PlatformId | null;
  onChange: (platform: PlatformId | null) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {PREVIEW_LABEL}
      </label>
      <select
        id={id}
        value={value ?? ''}
        onChange={(event) => {
          const next = event.target.value;
          onChange(isPlatformId(next) ? next : null);
        }}
        className={selectClass}
      >
        <option value="">{PREVIEW_OFF_LABEL}</option>
        {PLATFORM_IDS.map((platform) => (
          <option key={platform} value={platform}>
            {PLATFORMS[platform].label}
          </option>
        ))}
      </select>
    </div>
  );
}
