import { useRef, useState, type FormEvent, type ReactNode, type Ref } from 'react';
import { Alert } from '../../ui/alert';
import { primaryButton } from '../../ui/button-styles';
import { TextField } from '../../ui/text-field';
import type { FieldCheck } from './field-validation';

// The pieces the sign-in, sign-up and magic-link forms share, so the three screens keep one
// look and one way of reporting mistakes.

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
 * The fields of one form: each field's message from the last submit, and where the focus goes
 * when a submit finds mistakes.
 */
export function useAuthFields<Field extends string>() {
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  return {
    /**
     * Props for a TextField (or EmailField, PasswordField) holding `field`: editing it clears
     * its own message only.
     */
    bind(field: Field, value: string, onValueChange: (value: string) => void) {
      return {
        value,
        onValueChange: (next: string) => {
          onValueChange(next);
          setErrors((current) => ({ ...current, [field]: undefined }));
        },
        error: errors[field],
        inputRef: (input: HTMLInputElement | null) => {
          inputs.current[field] = input;
        },
      };
    },
    /**
     * Shows every check's message at once and puts the focus on the first field (in the order
     * given) that failed, where the person fixes it next.
     */
    report(checks: Record<Field, FieldCheck<unknown>>) {
      const next: Partial<Record<Field, string>> = {};
      let firstBad: Field | undefined;
      for (const field of Object.keys(checks) as Field[]) {
        const check = checks[field];
        if (check.ok) continue;
        next[field] = check.error;
        firstBad ??= field;
      }
      setErrors(next);
      if (firstBad !== undefined) inputs.current[firstBad]?.focus();
    },
  };
}
