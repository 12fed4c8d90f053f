import { useId, useState } from 'react';
import { MEMBER_ROLES, ROLE_LABELS, type Member, type MemberRole } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { useAuth } from '../auth/use-auth';
import { UserAvatar } from '../auth/user-avatar';
import { useChangeRole, useRemoveMember, type MembersTarget } from './members-api';
import { memberName, selectClass, smallButton, type Feedback } from './members-dialog-parts';
import { RoleBadge } from './role-badge';

interface MemberRowProps {
  target: MembersTarget;
  targetName: string;
  member: Member;
  /** The caller is the owner: roles can be changed and members removed. */
  manages: boolean;
  onFeedback: (feedback: Feedback) => void;
  /** Offers 'Transfer ownership' to an editor; absent where ownership is not transferred. */
  onTransfer?: (member: Member) => void;
}

/** One member: their name and role; for the owner, the role to change, Remove and Transfer. */
export function MemberRow({
  target,
  targetName,
  member,
  manages,
  onFeedback,
  onTransfer,
}: MemberRowProps) {
  const { user } = useAuth();
  const changeRole = useChangeRole(target);
  const remove = useRemoveMember(target);
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);
  const selectId = useId();
  const name = memberName(member);
  const isOwner = member.role === 'owner';
  const busy = changeRole.isPending || remove.isPending;
  const linksMade = member.links_made ?? 0;

  function onRoleChange(next: MemberRole) {
    onFeedback(null);
    changeRole.mutate(
      { userId: member.user_id, role: next },
      {
        onSuccess: () =>
          onFeedback({ tone: 'success', text: `${name} is now ${ROLE_LABELS[next]}.` }),
        onError: (error) =>
          onFeedback({ tone: 'error', text: errorMessage(error, 'Failed to change the role') }),
      },
    );
  }

  function removeMember(revokeLinks: boolean) {
    onFeedback(null);
    remove.mutate(
      { userId: member.user_id, revokeLinks },
      {
        onSuccess: () => {
          setConfirmingRemoval(false);
          onFeedback({ tone: 'success', text: `${name} was removed.` });
        },
        onError: (error) => {
          if (!confirmingRemoval)
            onFeedback({ tone: 'error', text: errorMessage(error, 'Failed to remove the member') });
        },
      },
    );
  }

  // Someone who made share links that still open is asked about first; anyone else goes at once.
  function onRemove() {
    if (linksMade > 0) setConfirmingRemoval(true);
    else removeMember(true);
  }

  return (
    <li data-member={member.email} className="flex flex-wrap items-center gap-3 py-3">
      <UserAvatar
        user={{
          email: member.email,
          name: member.name,
          display_name: null,
          avatar_url: member.avatar_url,
        }}
      />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-zinc-900 dark:text-white">
          {name}
          {user?.id === member.user_id && (
            <span className="font-normal text-zinc-500 dark:text-zinc-400"> (you)</span>
          )}
        </p>
        {member.name?.trim() && (
          <p className="truncate text-xs text-zinc-600 dark:text-zinc-400">{member.email}</p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {manages && !isOwner ? (
          <>
            <label htmlFor={selectId} className="sr-only">
              Role of {name}
            </label>
            <select
              id={selectId}
              className={selectClass}
              value={member.role}
              disabled={busy}
              onChange={(event) => onRoleChange(event.target.value as MemberRole)}
            >
              {MEMBER_ROLES.map((option) => (
                <option key={option} value={option}>
                  {ROLE_LABELS[option]}
                </option>
              ))}
            </select>
            {onTransfer && member.role === 'editor' && (
              <button
                type="button"
                className={smallButton}
                disabled={busy}
                aria-label={`Transfer ownership to ${name}`}
                onClick={() => onTransfer(member)}
              >
                Transfer ownership
              </button>
            )}
            <button
              type="button"
              className={`${smallButton} text-red-700 dark:text-red-400`}
              disabled={busy}
              aria-label={`Remove ${name}`}
              onClick={onRemove}
            >
              Remove
            </button>
          </>
        ) : (
          <RoleBadge role={member.role} />
        )}
      </div>
      {confirmingRemoval && (
        <RemoveMemberConfirm
          name={name}
          targetName={targetName}
          linksMade={linksMade}
          pending={remove.isPending}
          error={remove.isError ? errorMessage(remove.error, 'Failed to remove the member') : null}
          onConfirm={removeMember}
          onClose={() => {
            remove.reset();
            setConfirmingRemoval(false);
          }}
        />
      )}
    </li>
  );
}

/** "They made 3 share links that still open." */
export function linksMadeSentence(count: number): string {
  return count === 1
    ? 'They made 1 share link that still opens.'
    : `They made ${count} share links that still open.`;
}

/**
 * Removing someone who made share links: 'Also revoke the links they made' (checked by default)
 * and how many there are, so nobody keeps listening through a link after its maker has gone.
 */
function RemoveMemberConfirm({
  name,
  targetName,
  linksMade,
  pending,
  error,
  onConfirm,
  onClose,
}: {
  name: string;
  targetName: string;
  linksMade: number;
  pending: boolean;
  error: string | null;
  onConfirm: (revokeLinks: boolean) => void;
  onClose: () => void;
}) {
  const [revokeLinks, setRevokeLinks] = useState(true);
  const checkboxId = useId();
  return (
    <ConfirmDeleteModal
      title="Remove member"
      description={
        <>
          Remove <strong>{name}</strong> from <strong>{targetName}</strong>? They lose access on
          their next request.
        </>
      }
      confirmLabel="Remove"
      pendingLabel="Removing…"
      pending={pending}
      error={error}
      onConfirm={() => onConfirm(revokeLinks)}
      onClose={onClose}
    >
      <div className="mb-4 space-y-2">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">{linksMadeSentence(linksMade)}</p>
        <div className="flex items-center gap-2">
          <input
            id={checkboxId}
            type="checkbox"
            className="size-4 rounded border-zinc-300 text-indigo-600 dark:border-zinc-700"
            checked={revokeLinks}
            onChange={(event) => setRevokeLinks(event.target.checked)}
          />
          <label htmlFor={checkboxId} className="text-sm text-zinc-900 dark:text-white">
            Also revoke the links they made
          </label>
        </div>
      </div>
    </ConfirmDeleteModal>
  );
}
