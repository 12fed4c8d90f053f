import { useState, type FormEvent } from 'react';
import { PROJECT_MESSAGES } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { Modal } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { useCreateProject } from './projects-api';
import { PUBLIC_MEANING } from './public-meaning';

interface CreateProjectModalProps {
  onClose: () => void;
  onCreated: (projectId: string) => void;
}

export function CreateProjectModal({ onClose, onCreated }: CreateProjectModalProps) {
  const createProject = useCreateProject();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [isPrivate, setIsPrivate] = useState(true);
  const [nameError, setNameError] = useState<string>();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name.trim()) {
      setNameError(PROJECT_MESSAGES.projectNameRequired);
      return;
    }
    setNameError(undefined);
    createProject.mutate(
      {
        name: name.trim(),
        is_private: isPrivate,
        ...(description.trim() ? { description: description.trim() } : {}),
      },
      { onSuccess: (project) => onCreated(project.id) },
    );
  }

  return (
    <Modal title="Create New Project" onClose={onClose}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField
          label="Project Name"
          value={name}
          onValueChange={setName}
          error={nameError}
          required
          autoComplete="off"
        />
        <TextAreaField
          label="Description (optional)"
          value={description}
          onValueChange={setDescription}
        />
        <PrivacyRadios isPrivate={isPrivate} onChange={setIsPrivate} />
        {createProject.isError && (
          <Alert tone="error">
            {errorMessage(createProject.error, 'Failed to create project. Please try again.')}
          </Alert>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={primaryButton} disabled={createProject.isPending}>
            {createProject.isPending ? 'Creating...' : 'Create Project'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

interface TextAreaFieldProps {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  rows?: number;
  placeholder?: string;
}

export function TextAreaField({
  label,
  value,
  onValueChange,
  rows = 3,
  placeholder,
}: TextAreaFieldProps) {
  return (
    <label className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
      {label}
      <textarea
        value={value}
        rows={rows}
        placeholder={placeholder}
        onChange={(event) => onValueChange(event.target.value)}
        className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm font-normal text-zinc-900 shadow-sm placeholder:text-zinc-500 focus:outline-2 focus:-outline-offset-1 focus:outline-indigo-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-white dark:placeholder:text-zinc-400"
      />
    </label>
  );
}

export function PrivacyRadios({
  isPrivate,
  onChange,
}: {
  isPrivate: boolean;
  onChange: (isPrivate: boolean) => void;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">Privacy</legend>
      <div className="mt-2 flex gap-6 text-sm">
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="privacy"
            checked={isPrivate}
            onChange={() => onChange(true)}
            className="accent-indigo-600"
          />
          Private
        </label>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="privacy"
            checked={!isPrivate}
            onChange={() => onChange(false)}
            className="accent-indigo-600"
          />
          Public
        </label>
      </div>
      {!isPrivate && (
        <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
          {PUBLIC_MEANING} Its page is not listed in search engines unless you choose so on the
          project page.
        </p>
      )}
    </fieldset>
  );
}
