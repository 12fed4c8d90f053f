import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import {
  MEMBER_MESSAGES,
  MEMBER_ROLES,
  ROLE_LABELS,
  may,
  type Invitation,
  type Member,
  type MemberRole,
  type Role,
} from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { Modal } from '../../ui/modal';
import { Spinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { useAuth } from '../auth/use-auth';
import { UserAvatar } from '../auth/user-avatar';
import {
  useChangeRole,
  useInvite,
  useLeave,
  useMembers,
  useRemoveMember,
  useResendInvitation,
  useRevokeInvitation,
  useTransferOwnership,
  canTransfer,
  type MembersTarget,
  type TransferableTarget,
} from './members-api';
import { RoleBadge } from './role-badge';

interface MembersDialogProps {
  target: MembersTarget;
  /** The project's, repository's or collection's name, for the confirmations. */
  targetName: string;
  onClose: () => void;
}

type Feedback = { tone: 'success' | 'error'; text: string } | null;

type Noun = MembersTarget['kind'];

/** The dialog's title for each kind of target. */
const TITLES: Record<Noun, string> = {
  project: 'Project members',
  repository: 'Repository members',
  collection: 'Collection members',
};

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

const selectClass =
  'block rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm text-zinc-900 shadow-sm focus:outline-2 focus:-outline-offset-1 focus:outline-indigo-500 disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-900 dark:text-white';
const smallButton = `${secondaryButton} px-2.5 py-1 text-xs`;
const sectionHeading = 'text-sm font-semibold text-zinc-900 dark:text-white';

/** A member as the list names them: their display name, else their email. */
function memberName(member: Member): string {
  return member.name?.trim() || member.email;
}

/** A plain check before asking the server, which has the last word on what an address is. */
function emailProblem(email: string): string | undefined {
  if (!email) return MEMBER_MESSAGES.emailRequired;
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) return MEMBER_MESSAGES.emailInvalid;
  return undefined;
}

/**
 * 'Project members' / 'Repository members' / 'Collection members': everybody sees who is in; the
 * owner changes roles, removes members, hands a project or a repository to an editor (a
 * collection's ownership is not transferred), invites by email and manages pending invitations;
 * everybody else may leave.
 */
export function MembersDialog({ target, targetName, onClose }: MembersDialogProps) {
  const members = useMembers(target);
  const noun = target.kind;
  const title = TITLES[noun];

  return (
    <Modal title={title} onClose={onClose} wide>
      {members.isPending ? (
        <Spinner label="Loading members" />
      ) : members.isError ? (
        <Alert tone="error">{errorMessage(members.error, 'Failed to load members')}</Alert>
      ) : (
        <MembersBody
          target={target}
          targetName={targetName}
          noun={noun}
          role={members.data.role}
          members={members.data.members}
          invitations={members.data.invitations}
        />
      )}
      <div className="mt-6 flex justify-end">
        <button type="button" className={secondaryButton} onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}

interface MembersBodyProps {
  target: MembersTarget;
  targetName: string;
  noun: Noun;
  role: Role;
  members: Member[];
  invitations: Invitation[];
}

function MembersBody({ target, targetName, noun, role, members, invitations }: MembersBodyProps) {
  const manages = may(role, 'manageMembers');
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [transferring, setTransferring] = useState<Member | null>(null);
  const headingId = useId();
  const transferable = canTransfer(target) ? target : null;

  return (
    <div className="space-y-6">
      <section aria-labelledby={headingId} className="space-y-2">
        <h3 id={headingId} className={sectionHeading}>
          Members ({members.length})
        </h3>
        <ul aria-label="Members" className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {members.map((member) => (
            <MemberRow
              key={member.user_id}
              target={target}
              targetName={targetName}
              member={member}
              manages={manages}
              onFeedback={setFeedback}
              onTransfer={transferable ? setTransferring : undefined}
            />
          ))}
        </ul>
      </section>

      {manages && (
        <PendingInvitations target={target} invitations={invitations} onFeedback={setFeedback} />
      )}

      {feedback && <Alert tone={feedback.tone}>{feedback.text}</Alert>}

      {manages ? (
        <InviteForm target={target} />
      ) : (
        <LeaveSection target={target} targetName={targetName} noun={noun} />
      )}

      {transferable && transferring && (
        <TransferConfirm
          target={transferable}
          targetName={targetName}
          member={transferring}
          onClose={() => setTransferring(null)}
          onDone={(text) => {
            setTransferring(null);
            setFeedback({ tone: 'success', text });
          }}
        />
      )}
    </div>
  );
}

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

function MemberRow({
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
          displayName: null,
          avatarUrl: member.avatar_url,
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

function PendingInvitations({
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

function InviteForm({ target }: { target: MembersTarget }) {
  const invite = useInvite(target);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('commenter');
  const [fieldError, setFieldError] = useState<string>();
  const [feedback, setFeedback] = useState<Feedback>(null);
  const headingId = useId();
  const roleId = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(null);
    const address = email.trim();
    const problem = emailProblem(address);
    setFieldError(problem);
    if (problem) return;
    invite.mutate(
      { email: address, role },
      {
        onSuccess: (invitation) => {
          setEmail('');
          setFeedback({ tone: 'success', text: `Invitation sent to ${invitation.email}.` });
        },
        onError: (error) =>
          setFeedback({
            tone: 'error',
            text: errorMessage(error, 'Failed to send the invitation'),
          }),
      },
    );
  }

  return (
    <section
      aria-labelledby={headingId}
      className="space-y-3 rounded-md bg-zinc-50 p-4 dark:bg-zinc-800/50"
    >
      <h3 id={headingId} className={sectionHeading}>
        Invite someone
      </h3>
      <form onSubmit={submit} noValidate className="space-y-3">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <div className="flex-1">
            <TextField
              label="Email"
              type="email"
              autoComplete="off"
              value={email}
              onValueChange={setEmail}
              error={fieldError}
            />
          </div>
          <div>
            <label
              htmlFor={roleId}
              className="block text-sm font-medium text-zinc-800 dark:text-zinc-200"
            >
              Role
            </label>
            <select
              id={roleId}
              className={`${selectClass} mt-1 py-2`}
              value={role}
              onChange={(event) => setRole(event.target.value as MemberRole)}
            >
              {MEMBER_ROLES.map((option) => (
                <option key={option} value={option}>
                  {ROLE_LABELS[option]}
                </option>
              ))}
            </select>
          </div>
        </div>
        {feedback && <Alert tone={feedback.tone}>{feedback.text}</Alert>}
        <div className="flex justify-end">
          <button type="submit" className={primaryButton} disabled={invite.isPending}>
            Invite
          </button>
        </div>
      </form>
    </section>
  );
}

function LeaveSection({
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

function TransferConfirm({
  target,
  targetName,
  member,
  onClose,
  onDone,
}: {
  target: TransferableTarget;
  targetName: string;
  member: Member;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const transfer = useTransferOwnership(target);
  const name = memberName(member);
  return (
    <ConfirmDeleteModal
      title="Transfer ownership"
      description={
        <>
          Make <strong>{name}</strong> the owner of <strong>{targetName}</strong>? You will become
          an editor: you will no longer be able to manage members, change its privacy or delete it.
        </>
      }
      confirmLabel="Transfer ownership"
      pendingLabel="Transferring…"
      pending={transfer.isPending}
      error={transfer.isError ? errorMessage(transfer.error, 'Failed to transfer ownership') : null}
      onConfirm={() =>
        transfer.mutate(member.user_id, { onSuccess: () => onDone(`${name} is now the owner.`) })
      }
      onClose={onClose}
    />
  );
}
