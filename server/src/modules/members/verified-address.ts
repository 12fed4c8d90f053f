import { EMAIL_UNVERIFIED_CODE } from '@takes/contract';
import { AppError } from '../../errors';

/** What joining asks of the auth module (its service answers it). */
export interface EmailCheck {
  isEmailVerified(userId: string): Promise<boolean>;
  /** Mails a 6-digit code (limited like sign-in codes: 429 past the client address's limit). */
  sendAddressCheck(email: string, ip: string): Promise<'sent' | 'recent'>;
}

/**
 * The one rule for taking a seat (an invitation, an invite link): the account must have proven
 * its address. One made with a password that has not gets 403 with
 * `details.code = 'email_unverified'` and a 6-digit code by email, so whoever holds a forwarded
 * link cannot sign up under someone else's address and take the seat.
 */
export async function requireVerifiedAddress(
  emailCheck: EmailCheck,
  caller: { id: string; email: string },
  ip: string,
  message: (email: string) => string,
): Promise<void> {
  if (await emailCheck.isEmailVerified(caller.id)) return;
  await emailCheck.sendAddressCheck(caller.email, ip);
  throw new AppError(
    'forbidden',
    message(caller.email),
    { code: EMAIL_UNVERIFIED_CODE, email: caller.email },
    EMAIL_UNVERIFIED_CODE,
  );
}
