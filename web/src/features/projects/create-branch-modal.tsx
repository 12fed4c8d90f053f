import { useState, type FormEvent } from 'react';
import type { BranchSummary } from '@takes/contract';
import { PROJECT_MESSAGES } from '@takes/contract';
import { ApiError } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { Modal } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { useCreateBranch } from './projects-api';

interface CreateBranchModalProps {
  projectId: string;
  /** The upload page's wording; the project page's modal is 'Create Branch'. */
  title?: string;
  onClose: () => void;
  onCreated: (branch: BranchSummary) => void;
}

export function CreateBranchModal({
  projectId,
  title = 'Create Branch',
  onClose,
  onCreated,
}: CreateBranchModalProps) {
  const createBranch = useCreateBranch(projectId);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError(PROJECT_MESSAGES.branchNameRequired);
      return;
    }
    setNameError(undefined);
    createBranch.mutate(trimmed, { onSuccess: onCreated });
  }

  const failure = createBranch.error;
  return (
    <Modal title={title} onClose={onClose}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField
          label="Branch Name"
          value={name}
          onValueChange={setName}
          error={nameError}
          autoComplete="off"
          required
        />
        {failure && (
          <Alert tone="error">
            {failure instanceof ApiError && failure.serverMessage
              ? `Failed to create branch: ${failure.serverMessage}`
              : 'Failed to create branch. Please try again.'}
          </Alert>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={primaryButton} disabled={createBranch.isPending}>
            {createBranch.isPending ? 'Creating...' : 'Create Branch'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
