import { AUTH_MESSAGES } from '@takes/contract';
import { COMMON_PASSWORDS } from './common-passwords.data';

let common: Set<string> | undefined;

/** True for one of the 10,000 most common passwords (compared case-insensitively). */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(COMMON_PASSWORDS.split('\n'));
  return common.has(password.toLowerCase());
}

/** The message to show for a password the policy refuses, or undefined when it is fine. */
export function passwordProblem(password: string): string | undefined {
  return isCommonPassword(password) ? AUTH_MESSAGES.passwordTooCommon : undefined;
}
