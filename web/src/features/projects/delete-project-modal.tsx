import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { Alert } from '../../ui/alert';
import { Modal } from '../../ui/modal';
import { useDeleteProject } from './projects-api';

interface DeleteProjectModalProps {
  project: { id: string; name: string };
  onClose: () => void;
  onDeleted: () => void;
}

/** Delete project: confirm, delete, refresh the list (spec section 4). */
export function DeleteProjectModal({ project, onClose, onDeleted }: DeleteProjectModalProps) {
  const deleteProject = useDeleteProject();
  return (
    <Modal
      title="Delete Project"
      description={
        <>
          Are you sure you want to delete <strong>{project.name}</strong>? All of its branches and
          versions will be deleted. This cannot be undone.
        </>
      }
      onClose={onClose}
    >
      {deleteProject.isError && (
        <Alert tone="error" className="mb-4">
          Failed to delete project. Please try again.
        </Alert>
      )}
      <div className="flex justify-end gap-2">
        <button type="button" className={secondaryButton} onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className={`${primaryButton} bg-red-600 hover:bg-red-500`}
          disabled={deleteProject.isPending}
          onClick={() => deleteProject.mutate(project.id, { onSuccess: onDeleted })}
        >
          {deleteProject.isPending ? 'Deleting...' : 'Delete Project'}
        </button>
      </div>
    </Modal>
  );
}
