import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Project } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { Badge, PrivacyBadge } from '../../ui/badge';
import { linkButton, secondaryButton } from '../../ui/button-styles';
import { DeleteProjectModal } from './delete-project-modal';
import { EditProjectModal } from './edit-project-modal';
import { useTogglePrivacy } from './projects-api';

export function ProjectHeader({ project }: { project: Project }) {
  const navigate = useNavigate();
  const togglePrivacy = useTogglePrivacy(project.id);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [copied, setCopied] = useState(false);

  async function share() {
    const url = `${window.location.origin}/projects/${project.id}`;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      window.prompt('Copy this link', url);
    }
  }

  return (
    <header className="space-y-3">
      <Link to="/dashboard" className={linkButton}>
        ← Back to Dashboard
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-2xl font-bold tracking-tight break-words sm:text-3xl">
              {project.name}
            </h1>
            <Badge tone="indigo">Owner</Badge>
            <PrivacyBadge isPrivate={project.is_private} />
          </div>
          <p className="mt-1 text-zinc-600 dark:text-zinc-300">
            {project.description || 'No description provided.'}
          </p>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            Created {formatDate(project.created_at)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={`${secondaryButton} px-3 py-1.5`}
            disabled={togglePrivacy.isPending}
            onClick={() => togglePrivacy.mutate()}
          >
            {project.is_private ? 'Make public' : 'Make private'}
          </button>
          <button
            type="button"
            className={`${secondaryButton} px-3 py-1.5`}
            onClick={() => void share()}
          >
            {copied ? 'Copied!' : 'Share'}
          </button>
          <button
            type="button"
            className={`${secondaryButton} px-3 py-1.5`}
            onClick={() => setEditing(true)}
          >
            Edit
          </button>
          <button
            type="button"
            className={`${secondaryButton} px-3 py-1.5 text-red-700 dark:text-red-400`}
            onClick={() => setDeleting(true)}
          >
            Delete
          </button>
        </div>
      </div>
      {togglePrivacy.isError && (
        <Alert tone="error">{errorMessage(togglePrivacy.error, 'Failed to change privacy.')}</Alert>
      )}
      {editing && <EditProjectModal project={project} onClose={() => setEditing(false)} />}
      {deleting && (
        <DeleteProjectModal
          project={project}
          onClose={() => setDeleting(false)}
          onDeleted={() => void navigate('/dashboard', { replace: true })}
        />
      )}
    </header>
  );
}
