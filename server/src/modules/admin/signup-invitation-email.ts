import type { MailMessage } from '../../mail/mailer';

/** Where the emailed invitation leads: the sign-in page, where the address can make its account. */
export const SIGNUP_PAGE = '/login';

/**
 * An admin's invitation to make an account on this Takes: it lets the address in whatever the
 * sign-up policy. Plain text, like every Takes email; it names no one (an admin's address is
 * theirs to give).
 */
export function signupInvitationEmail(input: { to: string; publicUrl: string }): MailMessage {
  const link = `${input.publicUrl.replace(/\/+$/, '')}${SIGNUP_PAGE}?${new URLSearchParams({ mode: 'sign-up' }).toString()}`;
  return {
    to: input.to,
    subject: 'You are invited to Takes',
    text: [
      `You are invited to make an account on Takes at ${input.publicUrl}.`,
      '',
      'Open this link and sign up with this address:',
      link,
      '',
      `The invitation is for ${input.to}: sign up with this address to use it.`,
      'If you did not expect this invitation, you can ignore this email.',
    ].join('\n'),
  };
}
