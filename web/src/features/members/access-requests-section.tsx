import { useId, useState } from 'react';
import { MEMBER_ROLES, ROLE_LABELS, type AccessRequest, type MemberRole } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { useAccessRequests, useDecideAccessRequest } from './doors-api';
import { sectionHeading, selectClass, smallButton, type Feedback } from './members-dialog-parts';

/**
 * 'Access requests', for a project's owner: who asked to join from a share link (and their note),
 * each to grant at a role (Viewer unless another is picked) or decline.
 */
export function AccessRequestsSection({ projectId }: { projectId: string }) {
  const requests = useAccessRequests(projectId);
  // Held here, not by the row: a granted row leaves the list before its answer is told.
  const decide = useDecideAccessRequest(projectId);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const headingId = useId();
  const open = requests.data?.requests ?? [];

  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <h3 id={headingId} className={sectionHeading}>
        Access requests ({open.length})
      </h3>
      {requests.isError ? (
        <Alert tone="error">{errorMessage(requests.error, 'Failed to load access requests')}</Alert>
      ) : open.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No one is asking to join.</p>
      ) : (
        <ul aria-label="Access requests" className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {open.map((request) => (
            <RequestRow
              key={request.id}
              request={request}
              busy={decide.isPending && decide.variables.requestId === request.id}
              onDecide={(grant) => {
                setFeedback(null);
                decide.mutate(
                  { requestId: request.id, grant },
                  {
                    onSuccess: () =>
                      setFeedback({
                        tone: 'success',
                        text: grant
                          ? `${request.name} joined as ${ROLE_LABELS[grant]}.`
                          : `${request.name}'s request declined.`,
                      }),
                    onError: (error) =>
                      setFeedback({
                        tone: 'error',
                        text: errorMessage(
                          error,
                          grant ? 'Failed to grant access' : 'Failed to decline',
                        ),
                      }),
                  },
                );
              }}
            />
          ))}
        </ul>
      )}
      {feedback && <Alert tone={feedback.tone}>{feedback.text}</Alert>}
    </section>
  );
}

function RequestRow({
  request,
  busy,
  onDecide,
}: {
  request: AccessRequest;
  busy: boolean;
  /** A role grants it; null declines it. */
  onDecide: (grant: MemberRole | null) => void;
}) {
  const [role, setRole] = useState<MemberRole>('viewer');
  const roleId = useId();

  return (
    <li data-access-request={request.name} className="flex flex-wrap items-center gap-3 py-3">
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-zinc-900 dark:text-white">
          {request.name} <span className="font-normal text-zinc-600">({request.email})</span>
        </p>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Asked <time dateTime={request.created_at}>{formatDate(request.created_at)}</time>
        </p>
        {request.note && (
          <p className="mt-1 text-sm break-words whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">
            {request.note}
          </p>
        )}
      </div>
      <div className="flex items-center gap-2">
        <label htmlFor={roleId} className="sr-only">
          Role for {request.name}
        </label>
        <select
          id={roleId}
          className={selectClass}
          value={role}
          disabled={busy}
          onChange={(event) => setRole(event.target.value as MemberRole)}
        >
          {MEMBER_ROLES.map((option) => (
            <option key={option} value={option}>
              {ROLE_LABELS[option]}
            </option>
          ))}
        </select>
        <button
          type="button"
          className={smallButton}
          disabled={busy}
          aria-label={`Grant access to ${request.name}`}
          onClick={() => onDecide(role)}
        >
          Grant
        </button>
        <button
          type="button"
          className={`${smallButton} text-red-700 dark:text-red-400`}
          disabled={busy}
          aria-label={`Decline ${request.name}'s request`}
          onClick={() => onDecide(null)}
        >
          Decline
        </button>
      </div>
    </li>
  );
}
