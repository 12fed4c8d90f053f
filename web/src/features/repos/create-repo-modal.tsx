import { useState, type FormEvent } from 'react';
import { REPO_MESSAGES, type Repository } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { Modal } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { useCreateRepo } from './repos-api';

interface CreateRepoModalProps {
  onClose: () => void;
  onCreated: (repo: Repository) => void;
}

export function CreateRepoModal({ onClose, onCreated }: CreateRepoModalProps) {
  const createRepo = useCreateRepo();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name.trim()) {
      setNameError(REPO_MESSAGES.repoNameRequired);
      return;
    }
    setNameError(undefined);
    createRepo.mutate(name.trim(), { onSuccess: onCreated });
  }

  return (
    <Modal title="New repository" onClose={onClose}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField
          label="Repository name"
          value={name}
          onValueChange={setName}
          error={nameError}
          required
          autoComplete="off"
          maxLength={200}
        />
        {createRepo.isError && (
          <Alert tone="error">
            {errorMessage(createRepo.error, 'Failed to create repository')}
          </Alert>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={primaryButton} disabled={createRepo.isPending}>
            {createRepo.isPending ? 'Creating...' : 'Create repository'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
