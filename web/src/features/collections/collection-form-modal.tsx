import { useState, type FormEvent } from 'react';
import {
  COLLECTION_DESCRIPTION_MAX,
  COLLECTION_MESSAGES,
  COLLECTION_NAME_MAX,
} from '@takes/contract';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { Modal } from '../../ui/modal';
import { inputClass, TextField } from '../../ui/text-field';

export interface CollectionFields {
  name: string;
  description: string | null;
}

interface CollectionFormModalProps {
  title: string;
  submitLabel: string;
  pendingLabel: string;
  initial?: CollectionFields;
  pending: boolean;
  /** The server's message from the last attempt. */
  error: string | null;
  onSubmit: (fields: CollectionFields) => void;
  onClose: () => void;
}

/** Name (required) and description (optional): creating a collection, or editing one. */
export function CollectionFormModal({
  title,
  submitLabel,
  pendingLabel,
  initial,
  pending,
  error,
  onSubmit,
  onClose,
}: CollectionFormModalProps) {
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [nameError, setNameError] = useState<string>();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name.trim()) {
      setNameError(COLLECTION_MESSAGES.nameRequired);
      return;
    }
    setNameError(undefined);
    onSubmit({ name: name.trim(), description: description.trim() || null });
  }

  return (
    <Modal title={title} onClose={onClose}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField
          label="Name"
          value={name}
          onValueChange={setName}
          error={nameError}
          required
          autoComplete="off"
          maxLength={COLLECTION_NAME_MAX + 50}
        />
        <div>
          <label
            htmlFor="collection-description"
            className="block text-sm font-medium text-zinc-800 dark:text-zinc-200"
          >
            Description <span className="font-normal text-zinc-500">(optional)</span>
          </label>
          <textarea
            id="collection-description"
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            rows={3}
            maxLength={COLLECTION_DESCRIPTION_MAX}
            className={`${inputClass} mt-1 border-zinc-300 dark:border-zinc-700`}
          />
        </div>
        {error && <Alert tone="error">{error}</Alert>}
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={primaryButton} disabled={pending}>
            {pending ? pendingLabel : submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
