import { ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { useDeleteProject } from './projects-api';

interface DeleteProjectModalProps {
  project: { id: string; name: string };
  onClose: () => void;
  onDeleted: () => void;
}

/** Delete project: confirm, delete, then refresh the lists that show projects. */
export function DeleteProjectModal({ project, onClose, onDeleted }: DeleteProjectModalProps) {
  const deleteProject = useDeleteProject();
  return (
    <ConfirmDeleteModal
      title="Delete Project"
      description={
        <>
          Are you sure you want to delete <strong>{project.name}</strong>? All of its branches and
          versions will be deleted. This cannot be undone.
        </>
      }
      confirmLabel="Delete Project"
      pendingLabel="Deleting..."
      pending={deleteProject.isPending}
      error={deleteProject.isError ? 'Failed to delete project. Please try again.' : null}
      onConfirm={() => deleteProject.mutate(project.id, { onSuccess: onDeleted })}
      onClose={onClose}
    />
  );
}
