import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { may, type Project } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { PrivacyBadge } from '../../ui/badge';
import { linkButton, secondaryButton } from '../../ui/button-styles';
import { MembersButton } from '../members/members-button';
import { RoleBadge } from '../members/role-badge';
import { DeleteProjectModal } from './delete-project-modal';
import { EditProjectModal } from './edit-project-modal';
import { MakePublicModal } from './make-public-modal';
import { useTogglePrivacy, useUpdateProject } from './projects-api';

/** The project's name, badges and the buttons the caller's role may use. */
export function ProjectHeader({ project }: { project: Project }) {
  const navigate = useNavigate();
  const togglePrivacy = useTogglePrivacy(project.id);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [makingPublic, setMakingPublic] = useState(false);
  const [copied, setCopied] = useState(false);
  const { role } = project;

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
            <RoleBadge role={role} />
            <PrivacyBadge isPrivate={project.is_private} />
          </div>
          <p className="mt-1 text-zinc-600 dark:text-zinc-300">
            {project.description || 'No description provided.'}
          </p>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            Created {formatDate(project.created_at)}
          </p>
          {!project.is_private && <ListingState project={project} />}
        </div>
        <div className="flex flex-wrap gap-2">
          <MembersButton target={{ kind: 'project', id: project.id }} targetName={project.name} />
          {may(role, 'changePrivacy') && (
            <button
              type="button"
              className={`${secondaryButton} px-3 py-1.5`}
              disabled={togglePrivacy.isPending}
              onClick={() => (project.is_private ? setMakingPublic(true) : togglePrivacy.mutate())}
            >
              {project.is_private ? 'Make public' : 'Make private'}
            </button>
          )}
          {may(role, 'share') && (
            <button
              type="button"
              className={`${secondaryButton} px-3 py-1.5`}
              onClick={() => void share()}
            >
              {copied ? 'Copied!' : 'Share'}
            </button>
          )}
          {may(role, 'rename') && (
            <button
              type="button"
              className={`${secondaryButton} px-3 py-1.5`}
              onClick={() => setEditing(true)}
            >
              Edit
            </button>
          )}
          {may(role, 'delete') && (
            <button
              type="button"
              className={`${secondaryButton} px-3 py-1.5 text-red-700 dark:text-red-400`}
              onClick={() => setDeleting(true)}
            >
              Delete
            </button>
          )}
        </div>
      </div>
      {togglePrivacy.isError && (
        <Alert tone="error">{errorMessage(togglePrivacy.error, 'Failed to change privacy.')}</Alert>
      )}
      {makingPublic && (
        <MakePublicModal projectId={project.id} onClose={() => setMakingPublic(false)} />
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

/**
 * A Public project's page is marked noindex unless 'List in search engines' is ticked: everyone
 * sees which it is, the owner can change it.
 */
function ListingState({ project }: { project: Project }) {
  const update = useUpdateProject(project.id);
  const checkboxId = useId();
  const state = project.listed
    ? 'The public page is listed in search engines.'
    : 'The public page is not listed in search engines.';

  if (!may(project.role, 'changePrivacy')) {
    return <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{state}</p>;
  }
  return (
    <div className="mt-2 space-y-1">
      <div className="flex items-center gap-2">
        <input
          id={checkboxId}
          type="checkbox"
          checked={project.listed}
          disabled={update.isPending}
          onChange={(event) => update.mutate({ listed: event.target.checked })}
          className="size-4 accent-indigo-600"
        />
        <label htmlFor={checkboxId} className="text-sm text-zinc-800 dark:text-zinc-200">
          List in search engines
        </label>
      </div>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">{state}</p>
      {update.isError && (
        <Alert tone="error">{errorMessage(update.error, 'Failed to change the listing.')}</Alert>
      )}
    </div>
  );
}
