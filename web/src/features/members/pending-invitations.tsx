import { useId } from 'react';
import { ROLE_LABELS, type Invitation } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useResendInvitation, useRevokeInvitation, type MembersTarget } from './members-api';
import { sectionHeading, smallButton, type Feedback } from './members-dialog-parts';

/** 'Pending invitations', for whoever manages members: each one to resend or revoke. */
export function PendingInvitations({
  target,
  invitations,
  onFeedback,
}: {
  target: MembersTarget;
  invitations: Invitation[];
  onFeedback: (feedback: Feedback) => void;
}) {
  const resend = useResendInvitation(target);
  const revoke = useRevokeInvitation(target);
  const headingId = useId();
  const busyId = resend.isPending
    ? resend.variables
    : revoke.isPending
      ? revoke.variables
      : undefined;

  function onResend(invitation: Invitation) {
    onFeedback(null);
    resend.mutate(invitation.id, {
      onSuccess: () =>
        onFeedback({ tone: 'success', text: `Invitation sent again to ${invitation.email}.` }),
      onError: (error) =>
        onFeedback({ tone: 'error', text: errorMessage(error, 'Failed to resend the invitation') }),
    });
  }

  function onRevoke(invitation: Invitation) {
    onFeedback(null);
    revoke.mutate(invitation.id, {
      onSuccess: () =>
        onFeedback({ tone: 'success', text: `Invitation to ${invitation.email} revoked.` }),
      onError: (error) =>
        onFeedback({ tone: 'error', text: errorMessage(error, 'Failed to revoke the invitation') }),
    });
  }

  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <h3 id={headingId} className={sectionHeading}>
        Pending invitations ({invitations.length})
      </h3>
      {invitations.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No pending invitations.</p>
      ) : (
        <ul
          aria-label="Pending invitations"
          className="divide-y divide-zinc-200 dark:divide-zinc-800"
        >
          {invitations.map((invitation) => (
            <li
              key={invitation.id}
              data-invitation={invitation.email}
              className="flex flex-wrap items-center gap-3 py-3"
            >
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-zinc-900 dark:text-white">
                  {invitation.email}
                </p>
                <p className="text-xs text-zinc-600 dark:text-zinc-400">
                  {ROLE_LABELS[invitation.role]} · Sent{' '}
                  <time dateTime={invitation.sent_at}>{formatDate(invitation.sent_at)}</time>
                </p>
              </div>
              <div className="flex gap-2">
                <button
                  type="button"
                  className={smallButton}
                  disabled={busyId === invitation.id}
                  aria-label={`Resend invitation to ${invitation.email}`}
                  onClick={() => onResend(invitation)}
                >
                  Resend
                </button>
                <button
                  type="button"
                  className={`${smallButton} text-red-700 dark:text-red-400`}
                  disabled={busyId === invitation.id}
                  aria-label={`Revoke invitation to ${invitation.email}`}
                  onClick={() => onRevoke(invitation)}
                >
                  Revoke
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
