import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../lib/api';
import { secondaryButton } from '../../ui/button-styles';
import { ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { useLeave, type MembersTarget } from './members-api';
import type { Noun } from './members-dialog-parts';

/** What leaving takes away, for each kind of target. */
const LEAVE_WARNINGS: Record<Noun, string> = {
  project: 'You will no longer see it or its versions until someone invites you again.',
  repository: 'You will no longer see it or its bounces until someone invites you again.',
  collection: 'You will no longer see it until someone invites you again.',
};

/** 'Leave …' for each kind of target. */
const LEAVE_LABELS: Record<Noun, string> = {
  project: 'Leave project',
  repository: 'Leave repository',
  collection: 'Leave collection',
};

/** 'Leave project' (or repository, collection) for a member who does not manage members. */
export function LeaveSection({
  target,
  targetName,
  noun,
}: {
  target: MembersTarget;
  targetName: string;
  noun: Noun;
}) {
  const navigate = useNavigate();
  const leave = useLeave(target);
  const [confirming, setConfirming] = useState(false);
  const label = LEAVE_LABELS[noun];

  return (
    <div className="flex justify-start">
      <button
        type="button"
        className={`${secondaryButton} text-red-700 dark:text-red-400`}
        onClick={() => setConfirming(true)}
      >
        {label}
      </button>
      {confirming && (
        <ConfirmDeleteModal
          title={label}
          description={
            <>
              Leave <strong>{targetName}</strong>? {LEAVE_WARNINGS[noun]}
            </>
          }
          confirmLabel={label}
          pendingLabel="Leaving…"
          pending={leave.isPending}
          error={leave.isError ? errorMessage(leave.error, 'Failed to leave') : null}
          onConfirm={() =>
            leave.mutate(undefined, {
              // A collection's former member goes back to their collections.
              onSuccess: () =>
                void navigate(noun === 'collection' ? '/collections' : '/dashboard', {
                  replace: true,
                }),
            })
          }
          onClose={() => setConfirming(false)}
        />
      )}
    </div>
  );
}
