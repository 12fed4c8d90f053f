import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { INVITE_LINK_MESSAGES, ROLE_LABELS, routes, type InviteLinkView } from '@takes/contract';
import { api, ApiError, errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { linkButton, primaryButton, secondaryButton } from '../../ui/button-styles';
import { PageSpinner, Spinner } from '../../ui/spinner';
import { useAuth } from '../auth/use-auth';
import { useNoIndex } from '../share/use-noindex';
import { codeSentTo, ConfirmEmailForm } from './confirm-email-form';

const inviteLinks = routes.inviteLinks;

/** Expired, used up, revoked, unknown or malformed: the same words for all of them. */
function linkError(error: unknown, fallback: string): string {
  if (error instanceof ApiError && (error.status === 410 || error.status === 400))
    return INVITE_LINK_MESSAGES.invalid;
  return errorMessage(error, fallback);
}

/**
 * /join/{key}: an invite link pasted in a group chat. Anyone holding it sees the project, who
 * made the link and the role; 'Join project' needs a signed-in account with a proven address, so
 * a signed-out visitor is offered sign-in and sign-up and comes back here.
 */
export function JoinPage() {
  useDocumentTitle('Invite link · Takes');
  useNoIndex();
  const { key = '' } = useParams();
  const view = useQuery({
    queryKey: ['invite-links', 'view', key],
    // A POST: the key travels in the body, never in an API address a log could keep.
    queryFn: ({ signal }) =>
      api.call(inviteLinks.viewInviteLink, {
        body: { key },
        signal,
        fallbackMessage: 'Failed to load the invite link',
      }),
    retry: false,
    staleTime: Infinity,
  });

  return (
    <div className="mx-auto max-w-lg px-4 py-16 sm:px-6">
      {view.isPending ? (
        <PageSpinner label="Checking the invite link" />
      ) : view.isError ? (
        <div className="space-y-4">
          <h1 className="text-2xl font-bold tracking-tight text-zinc-900 dark:text-white">
            Invite link
          </h1>
          <Alert tone="error">{linkError(view.error, 'Failed to load the invite link')}</Alert>
          <Link to="/" className={linkButton}>
            Go to home
          </Link>
        </div>
      ) : (
        <div className="space-y-6 rounded-xl border border-zinc-200 bg-white p-6 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
          <div className="space-y-2">
            <h1 className="text-2xl font-bold tracking-tight break-words text-zinc-900 dark:text-white">
              Join {view.data.project_name}
            </h1>
            <p className="text-zinc-700 dark:text-zinc-300">
              <strong>{view.data.inviter_name}</strong> invited you to the project{' '}
              <strong>{view.data.project_name}</strong> on Takes as{' '}
              <strong>{ROLE_LABELS[view.data.role]}</strong>.
            </p>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              This link works until{' '}
              <time dateTime={view.data.expires_at}>{formatDate(view.data.expires_at)}</time>.
            </p>
          </div>
          <JoinAction linkKey={key} view={view.data} />
        </div>
      )}
    </div>
  );
}

function JoinAction({ linkKey, view }: { linkKey: string; view: InviteLinkView }) {
  const auth = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Set once the server asked for a code: the code field stays while joining is tried again.
  const [confirmingEmail, setConfirmingEmail] = useState<string | null>(null);
  const join = useMutation({
    mutationFn: () =>
      api.call(inviteLinks.joinInviteLink, {
        body: { key: linkKey },
        fallbackMessage: 'Failed to join the project',
      }),
    onError: (error) => {
      const sentTo = codeSentTo(error);
      if (sentTo) setConfirmingEmail(sentTo);
    },
    onSuccess: async (joined) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['projects'] }),
        queryClient.invalidateQueries({ queryKey: ['stats'] }),
      ]);
      await navigate(`/projects/${joined.project_id}`, { replace: true });
    },
  });

  if (auth.status === 'loading') return <Spinner label="Checking your session" />;

  if (auth.status === 'signed-out') {
    // The sign-in page comes back here afterwards, whichever way the visitor signs in.
    const back = { from: location };
    return (
      <div className="space-y-3">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          Sign in or create an account to join {view.project_name}.
        </p>
        <div className="flex flex-wrap gap-2">
          <Link to="/login" state={back} className={primaryButton}>
            Sign in
          </Link>
          <Link to="/login?mode=sign-up" state={back} className={secondaryButton}>
            Sign up
          </Link>
        </div>
      </div>
    );
  }

  if (confirmingEmail !== null)
    return (
      <ConfirmEmailForm
        email={confirmingEmail}
        reason={INVITE_LINK_MESSAGES.confirmEmailToJoin(confirmingEmail)}
        accepting={join.isPending}
        acceptError={
          join.isError && codeSentTo(join.error) === null
            ? linkError(join.error, 'Failed to join the project')
            : null
        }
        onConfirmed={() => join.mutate()}
        onSendNewCode={() => join.mutate()}
      />
    );

  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Signed in as <strong className="break-words">{auth.user.email}</strong>.
      </p>
      {join.isError && (
        <Alert tone="error">{linkError(join.error, 'Failed to join the project')}</Alert>
      )}
      <button
        type="button"
        className={primaryButton}
        disabled={join.isPending}
        onClick={() => join.mutate()}
      >
        {join.isPending ? 'Joining…' : 'Join project'}
      </button>
    </div>
  );
}
