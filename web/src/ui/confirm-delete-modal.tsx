import type { ReactNode } from 'react';
import { Alert } from './alert';
import { dangerButton, secondaryButton } from './button-styles';
import { Modal } from './modal';

interface ConfirmDeleteModalProps {
  title: string;
  /** What will be lost; each screen words it for what it deletes. */
  description: ReactNode;
  /** The confirming button's label, and its label while the deletion runs. */
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** Shown above the buttons when the last attempt failed; screens that only log leave it out. */
  error?: ReactNode;
  /** What the person may choose about the deletion (an option, a count), above the buttons. */
  children?: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * The one confirmation before deleting something for good: Cancel closes, the red button
 * confirms and is disabled while the deletion runs. The modal does not close itself on success:
 * the caller decides (close, navigate away) once the deletion is done.
 */
export function ConfirmDeleteModal({
  title,
  description,
  confirmLabel,
  pendingLabel,
  pending,
  error,
  children,
  onConfirm,
  onClose,
}: ConfirmDeleteModalProps) {
  return (
    <Modal title={title} description={description} onClose={onClose}>
      {children}
      {error ? (
        <Alert tone="error" className="mb-4">
          {error}
        </Alert>
      ) : null}
      <div className="flex justify-end gap-2">
        <button type="button" className={secondaryButton} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={dangerButton} disabled={pending} onClick={onConfirm}>
          {pending ? pendingLabel : confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
