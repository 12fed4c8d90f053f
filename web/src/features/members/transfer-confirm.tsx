import type { Member } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { useTransferOwnership, type TransferableTarget } from './members-api';
import { memberName } from './members-dialog-parts';

/** Asks before handing a project or a repository to an editor; the owner becomes an editor. */
export function TransferConfirm({
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
