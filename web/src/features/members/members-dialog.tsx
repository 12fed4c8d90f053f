import { useId, useState } from 'react';
import { may, type Invitation, type Member, type Role } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { secondaryButton } from '../../ui/button-styles';
import { Modal } from '../../ui/modal';
import { Spinner } from '../../ui/spinner';
import { AccessRequestsSection } from './access-requests-section';
import { InviteForm } from './invite-form';
import { InviteLinksSection } from './invite-links-section';
import { LeaveSection } from './leave-section';
import { MemberRow } from './member-row';
import { useMembers, canTransfer, type MembersTarget } from './members-api';
import { sectionHeading, type Feedback, type Noun } from './members-dialog-parts';
import { PendingInvitations } from './pending-invitations';
import { TransferConfirm } from './transfer-confirm';

interface MembersDialogProps {
  target: MembersTarget;
  /** The project's, repository's or collection's name, for the confirmations. */
  targetName: string;
  onClose: () => void;
}

/** The dialog's title for each kind of target. */
const TITLES: Record<Noun, string> = {
  project: 'Project members',
  repository: 'Repository members',
  collection: 'Collection members',
};

/**
 * 'Project members' / 'Repository members' / 'Collection members': everybody sees who is in; the
 * owner changes roles, removes members, hands a project or a repository to an editor (a
 * collection's ownership is not transferred), invites by email and manages pending invitations;
 * on a project also access requests and invite links; everybody else may leave.
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

      {manages && target.kind === 'project' && (
        <>
          <AccessRequestsSection projectId={target.id} />
          <InviteLinksSection projectId={target.id} />
        </>
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
