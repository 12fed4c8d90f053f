import type { MailMessage } from '../../mail/mailer';
import { mailText } from '../../mail/mail-text';

/**
 * The email that brings a recipient their own link to a collection: who shares what, the link,
 * when it ends, and (for a protected link) that the password comes separately: it is never sent.
 * Names are people's words: `mailText` keeps each on one line and never lets it pose as a link.
 */
export function collectionLinkEmail(input: {
  to: string;
  recipientName: string;
  sender: string;
  collectionName: string;
  link: string;
  expiresAt: string | null;
  hasPassword: boolean;
}): MailMessage {
  const sender = mailText(input.sender);
  const collection = mailText(input.collectionName);
  const lines = [
    `Hi ${mailText(input.recipientName)},`,
    '',
    `${sender} shared "${collection}" with you on Takes.`,
    '',
    'Listen here (this link is yours; please do not pass it on):',
    input.link,
    '',
  ];
  if (input.hasPassword) lines.push(`The link needs a password: ${sender} will give it to you.`);
  if (input.expiresAt)
    lines.push(`The link works until ${new Date(input.expiresAt).toUTCString()}.`);
  lines.push('If you did not expect this email, you can ignore it.');
  return {
    to: input.to,
    subject: `${sender} shared "${collection}" with you`,
    text: lines.join('\n'),
  };
}
