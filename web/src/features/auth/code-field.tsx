import { OTP_LENGTH } from '@takes/contract';
import { TextField, type TextFieldProps } from '../../ui/text-field';

/** The '6-digit code' field of signing in by code and of confirming an address. */
export function CodeField(props: Omit<TextFieldProps, 'label'>) {
  return (
    <TextField
      label="6-digit code"
      autoComplete="one-time-code"
      autoFocus
      inputMode="numeric"
      maxLength={OTP_LENGTH}
      {...props}
    />
  );
}
