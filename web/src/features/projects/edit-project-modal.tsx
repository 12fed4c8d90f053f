import { useState, type FormEvent } from 'react';
import { PROJECT_MESSAGES, type Project } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { Modal } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { TextAreaField } from './create-project-modal';
import { useUpdateProject } from './projects-api';

export function EditProjectModal({ project, onClose }: { project: Project; onClose: () => void }) {
  const update = useUpdateProject(project.id);
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description ?? '');
  const [nameError, setNameError] = useState<string>();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name.trim()) return setNameError(PROJECT_MESSAGES.projectNameRequired);
    setNameError(undefined);
    update.mutate(
      { name: name.trim(), description: description.trim() || null },
      { onSuccess: onClose },
    );
  }

  return (
    <Modal title="Edit Project" onClose={onClose}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField label="Project Name" value={name} onValueChange={setName} error={nameError} />
        <TextAreaField label="Description" value={description} onValueChange={setDescription} />
        {update.isError && (
          <Alert tone="error">{errorMessage(update.error, 'Failed to save the project.')}</Alert>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={primaryButton} disabled={update.isPending}>
            {update.isPending ? 'Saving...' : 'Save'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
