import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { MEMBER_MESSAGES, ROLE_LABELS, routes, type InvitationView } from '@takes/contract';
import { api, ApiError, errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { linkButton, primaryButton, secondaryButton } from '../../ui/button-styles';
import { PageSpinner, Spinner } from '../../ui/spinner';
import { useAuth } from '../auth/use-auth';
import { useNoIndex } from '../share/use-noindex';
import { codeSentTo, ConfirmEmailForm } from './confirm-email-form';

const members = routes.members;

/** Expired, used, revoked, unknown or malformed: the same words for all of them. */
function invitationError(error: unknown, fallback: string): string {
  if (error instanceof ApiError && (error.status === 410 || error.status === 400)) {
    return MEMBER_MESSAGES.invitationInvalid;
  }
  return errorMessage(error, fallback);
}

type Kind = InvitationView['kind'];

/** Where an accepted invitation lands. */
function targetPath(kind: Kind, id: string): string {
  switch (kind) {
    case 'project':
      return `/projects/${id}`;
    case 'repository':
      return `/repositories/${id}`;
    case 'collection':
      return `/collections/${id}`;
  }
}

/** What the invitation names its target, in a sentence and as a label. */
const NOUNS: Record<Kind, { word: string; label: string }> = {
  project: { word: 'project', label: 'Project' },
  repository: { word: 'repository', label: 'Repository' },
  collection: { word: 'collection', label: 'Collection' },
};

/**
 * /invite/{token}: what an emailed invitation offers (the project, repository or collection, who
 * invited, the role) and 'Accept invitation'. Anyone holding the link may read it; accepting needs the account
 * it was sent to, so a signed-out visitor is offered sign-in and sign-up and comes back here.
 */
export function InvitePage() {
  useDocumentTitle('Invitation · Takes');
  useNoIndex();
  const { token = '' } = useParams();
  const invitation = useQuery({
    queryKey: ['invitations', 'view', token],
    // A POST: the token travels in the body, never in an API address a log could keep.
    queryFn: ({ signal }) =>
      api.call(members.viewInvitation, {
        body: { token },
        signal,
        fallbackMessage: 'Failed to load the invitation',
      }),
    retry: false,
    staleTime: Infinity,
  });

  return (
    <div className="mx-auto max-w-lg px-4 py-16 sm:px-6">
      {invitation.isPending ? (
        <PageSpinner label="Checking your invitation" />
      ) : invitation.isError ? (
        <div className="space-y-4">
          <h1 className="text-2xl font-bold tracking-tight text-zinc-900 dark:text-white">
            Invitation
          </h1>
          <Alert tone="error">
            {invitationError(invitation.error, 'Failed to load the invitation')}
          </Alert>
          <Link to="/" className={linkButton}>
            Go to home
          </Link>
        </div>
      ) : (
        <InvitationCard token={token} invitation={invitation.data} />
      )}
    </div>
  );
}

function InvitationCard({ token, invitation }: { token: string; invitation: InvitationView }) {
  const noun = NOUNS[invitation.kind];
  return (
    <div className="space-y-6 rounded-xl border border-zinc-200 bg-white p-6 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
      <div className="space-y-2">
        <h1 className="text-2xl font-bold tracking-tight break-words text-zinc-900 dark:text-white">
          Join {invitation.target_name}
        </h1>
        <p className="text-zinc-700 dark:text-zinc-300">
          <strong>{invitation.inviter_name}</strong> invited you to the {noun.word}{' '}
          <strong>{invitation.target_name}</strong> on Takes as{' '}
          <strong>{ROLE_LABELS[invitation.role]}</strong>.
        </p>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-zinc-600 dark:text-zinc-400">{noun.label}</dt>
        <dd className="break-words">{invitation.target_name}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Invited by</dt>
        <dd className="break-words">{invitation.inviter_name}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Role</dt>
        <dd>{ROLE_LABELS[invitation.role]}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Sent to</dt>
        <dd className="break-words">{invitation.email}</dd>
      </dl>
      <InvitationAction token={token} invitation={invitation} />
    </div>
  );
}

function InvitationAction({ token, invitation }: { token: string; invitation: InvitationView }) {
  const auth = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [switching, setSwitching] = useState(false);
  // Set once the server asked for a code: the code field stays while accept is tried again.
  const [confirmingEmail, setConfirmingEmail] = useState<string | null>(null);
  const accept = useMutation({
    mutationFn: () =>
      api.call(members.acceptInvitation, {
        body: { token },
        fallbackMessage: 'Failed to accept the invitation',
      }),
    onError: (error) => {
      const sentTo = codeSentTo(error);
      if (sentTo) setConfirmingEmail(sentTo);
    },
    onSuccess: async (accepted) => {
      // The project now shows in 'Shared with you', the repository in the list, the collection
      // under the collections' 'Shared with you'.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['projects'] }),
        queryClient.invalidateQueries({ queryKey: ['repos'] }),
        queryClient.invalidateQueries({ queryKey: ['collections'] }),
        queryClient.invalidateQueries({ queryKey: ['stats'] }),
      ]);
      await navigate(targetPath(accepted.kind, accepted.target_id), { replace: true });
    },
  });

  if (auth.status === 'loading') return <Spinner label="Checking your session" />;

  if (auth.status === 'signed-out') {
    // The sign-in page comes back here afterwards, whichever way the visitor signs in.
    const back = { from: location };
    return (
      <div className="space-y-3">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          Sign in or create an account with {invitation.email} to accept this invitation.
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

  const wrongAccount =
    accept.error instanceof ApiError &&
    accept.error.status === 403 &&
    codeSentTo(accept.error) === null;

  async function switchAccount() {
    setSwitching(true);
    try {
      await auth.signOut();
      await navigate('/login', { state: { from: location } });
    } finally {
      setSwitching(false);
    }
  }

  if (confirmingEmail !== null)
    return (
      <ConfirmEmailForm
        email={confirmingEmail}
        reason={MEMBER_MESSAGES.confirmEmailToAccept(confirmingEmail)}
        accepting={accept.isPending}
        acceptError={
          accept.isError && codeSentTo(accept.error) === null
            ? invitationError(accept.error, 'Failed to accept the invitation')
            : null
        }
        onConfirmed={() => accept.mutate()}
        onSendNewCode={() => accept.mutate()}
      />
    );

  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Signed in as <strong className="break-words">{auth.user.email}</strong>.
      </p>
      {accept.isError && (
        <Alert tone="error">
          {invitationError(accept.error, 'Failed to accept the invitation')}
        </Alert>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={primaryButton}
          disabled={accept.isPending}
          onClick={() => accept.mutate()}
        >
          {accept.isPending ? 'Accepting…' : 'Accept invitation'}
        </button>
        {wrongAccount && (
          <button
            type="button"
            className={secondaryButton}
            disabled={switching}
            onClick={() => void switchAccount()}
          >
            Sign in with another account
          </button>
        )}
      </div>
    </div>
  );
}
