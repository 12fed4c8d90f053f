import {
  INVITATION_TTL_DAYS,
  invitationSubject,
  ROLE_LABELS,
  type MemberRole,
} from '@takes/contract';
import type { MailMessage } from '../../mail/mailer';
import { mailText } from '../../mail/mail-text';
import type { TargetKind } from './member-targets';

/** Where an invitation link leads: the web app's page that shows it and offers 'Accept'. */
export const INVITATION_PAGE = '/invite';

/** What each role may do, in the invitation's words. */
const CAN: Record<TargetKind, Record<MemberRole, string>> = {
  project: {
    viewer: 'listen to and download its versions',
    commenter: 'listen to and download its versions and comment on them',
    editor: 'upload versions, manage branches and share links, and comment',
  },
  repository: {
    viewer: 'listen to and download its bounces',
    commenter: 'listen to and download its bounces',
    editor: 'publish bounces from Takes Desktop or the CLI, and change its cover',
  },
  collection: {
    viewer: 'see it and play the items from projects you can listen to',
    commenter: 'see it and play the items from projects you can listen to',
    editor: 'add, remove and reorder its items and change its cover',
  },
};

/**
 * The invitation email: who invites whom to what, as which role, the link and when it ends. It
 * is plain text; names are people's words, which `mailText` keeps on one line and never lets pose
 * as a link.
 */
export function invitationEmail(input: {
  to: string;
  inviter: string;
  kind: TargetKind;
  targetName: string;
  role: MemberRole;
  link: string;
}): MailMessage {
  const inviter = mailText(input.inviter);
  const target = mailText(input.targetName);
  const what = input.kind;
  const role = ROLE_LABELS[input.role];
  return {
    to: input.to,
    subject: invitationSubject(inviter, target),
    text: [
      `${inviter} invited you to the ${what} "${target}" on Takes as ${article(role)} ${role}.`,
      `As ${article(role)} ${role} you can ${CAN[input.kind][input.role]}.`,
      '',
      'Open this link to accept the invitation:',
      input.link,
      '',
      `The link works once and expires in ${INVITATION_TTL_DAYS} days.`,
      `It is for ${input.to}: sign in or sign up with this address to accept it.`,
      'If you did not expect this invitation, you can ignore this email.',
    ].join('\n'),
  };
}

/** The emailed link for a token. */
export function invitationLink(publicUrl: string, token: string): string {
  return `${publicUrl}${INVITATION_PAGE}/${token}`;
}

function article(word: string): string {
  return /^[AEIOU]/i.test(word) ? 'an' : 'a';
}
