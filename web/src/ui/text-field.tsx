import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

type NativeInputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'value' | 'onChange' | 'aria-invalid' | 'aria-describedby' | 'className'
>;

export interface TextFieldProps extends NativeInputProps {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Shown under the field and tied to it for screen readers. */
  error?: string | undefined;
  hint?: ReactNode;
  /** Rendered inside the input's right edge (a show/hide toggle, for example). */
  trailing?: ReactNode;
  inputRef?: Ref<HTMLInputElement>;
}

export const inputClass =
  'block w-full rounded-md border bg-white px-3 py-2 text-sm text-zinc-900 shadow-sm placeholder:text-zinc-400 focus:outline-2 focus:-outline-offset-1 focus:outline-indigo-500 disabled:opacity-60 dark:bg-zinc-900 dark:text-white';

export function TextField({
  label,
  value,
  onValueChange,
  error,
  hint,
  trailing,
  inputRef,
  ...inputProps
}: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ');
  const borderClass = error
    ? 'border-red-500 dark:border-red-500'
    : 'border-zinc-300 dark:border-zinc-700';

  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <div className="relative mt-1">
        <input
          {...inputProps}
          ref={inputRef}
          id={id}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          className={`${inputClass} ${borderClass} ${trailing ? 'pr-20' : ''}`}
        />
        {trailing && (
          <div className="absolute inset-y-0 right-0 flex items-center pr-2">{trailing}</div>
        )}
      </div>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      )}
    </div>
  );
}
