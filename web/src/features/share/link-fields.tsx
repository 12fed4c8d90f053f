import type { ReactNode } from 'react';
import { inputClass } from '../../ui/text-field';

/**
 * The option fields every share dialog has (a version's Quick Share, a collection's 'Share
 * collection'): the expiry date and the checkboxes, with their hints.
 */

/** A chosen expiry day as the end of that day (local time), or null for none. */
export function expiryFromDate(date: string): string | null {
  if (!date) return null;
  const endOfDay = new Date(`${date}T23:59:59.999`);
  return Number.isNaN(endOfDay.getTime()) ? null : endOfDay.toISOString();
}

function todayInputValue(): string {
  const now = new Date();
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

/** 'Expiration date (optional)': a day from today on; blank never expires. */
export function ExpiryDateField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        Expiration date <span className="font-normal text-zinc-500">(optional)</span>
      </label>
      <input
        id={id}
        type="date"
        value={value}
        min={todayInputValue()}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={`${id}-hint`}
        className={`${inputClass} mt-1 border-zinc-300 dark:border-zinc-700 dark:[color-scheme:dark]`}
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
        Leave blank to never expire
      </p>
    </div>
  );
}

/** A labelled checkbox, with an optional hint under it. */
export function CheckboxField({
  id,
  label,
  checked,
  onChange,
  hint,
}: {
  id: string;
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: ReactNode;
}) {
  const box = (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        {...(hint ? { 'aria-describedby': `${id}-hint` } : {})}
        className="size-4 accent-indigo-600"
      />
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
    </div>
  );
  if (!hint) return box;
  return (
    <div>
      {box}
      <p id={`${id}-hint`} className="mt-1 ml-6 text-xs text-zinc-500 dark:text-zinc-400">
        {hint}
      </p>
    </div>
  );
}
