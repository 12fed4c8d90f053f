import { useState, type FormEvent, type ReactNode, type Ref } from 'react';
import { Alert } from '../../ui/alert';
import { primaryButton } from '../../ui/button-styles';
import { TextField } from '../../ui/text-field';

/**
 * The pieces the sign-in, sign-up and magic-link forms share, so the three screens keep one
 * look and one way of reporting mistakes.
 */

/** A sign-in step's form: the browser's own validation is off, the contract's schemas check. */
export function AuthForm({
  onSubmit,
  children,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  children: ReactNode;
}) {
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
      {children}
    </form>
  );
}

/** The failure of the last attempt as a whole (wrong password, code expired…). */
export function FormError({ message }: { message: string | null }) {
  return message ? <Alert tone="error">{message}</Alert> : null;
}

interface EmailFieldProps {
  value: string;
  onValueChange: (value: string) => void;
  error: string | undefined;
  inputRef: Ref<HTMLInputElement>;
}

export function EmailField({ value, onValueChange, error, inputRef }: EmailFieldProps) {
  return (
    <TextField
      label="Email"
      type="email"
      autoComplete="email"
      value={value}
      onValueChange={onValueChange}
      error={error}
      inputRef={inputRef}
    />
  );
}

/** The full-width button that sends the form; disabled while the request runs. */
export function SubmitButton({ disabled, children }: { disabled: boolean; children: ReactNode }) {
  return (
    <button type="submit" className={`${primaryButton} w-full`} disabled={disabled}>
      {children}
    </button>
  );
}

/**
 * Each field's message from the last submit; editing a field clears its own message only.
 */
export function useFieldErrors<Field extends string>() {
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  return {
    errors,
    setErrors,
    clear: (field: Field) => setErrors((current) => ({ ...current, [field]: undefined })),
  };
}
