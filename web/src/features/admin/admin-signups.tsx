import { useEffect, useState } from 'react';
import { SIGNUP_POLICIES, type SignupPolicyName } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { inputClass, TextField } from '../../ui/text-field';
import { useAdminSignups, useInviteToSignUp, useSetSignups } from './admin-api';
import { AdminCard } from './admin-card';

const POLICY_LABELS: Record<SignupPolicyName, string> = {
  open: 'Open: anyone can sign up',
  'invite-only': 'Invite-only: invitations, invite links and allowed domains',
  closed: 'Closed: nobody new, except by an admin’s invitation',
};

/** 'Sign-ups': the policy in force (stored here over SIGNUPS until reset) and admin invitations. */
export function AdminSignups() {
  const signups = useAdminSignups();
  const save = useSetSignups();
  const [policy, setPolicy] = useState<SignupPolicyName>('open');
  useEffect(() => {
    if (signups.data) setPolicy(signups.data.policy);
  }, [signups.data]);

  return (
    <AdminCard id="admin-signups" title="Sign-ups">
      {signups.isPending ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-300">Loading…</p>
      ) : signups.isError ? (
        <Alert tone="error">
          {errorMessage(signups.error, 'Failed to load the sign-up policy')}
        </Alert>
      ) : (
        <form
          className="space-y-3"
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(policy);
          }}
        >
          <label className="block text-sm font-medium">
            Who may sign up
            <select
              className={`${inputClass} mt-1 border-zinc-300 dark:border-zinc-700`}
              value={policy}
              onChange={(event) => setPolicy(event.target.value as SignupPolicyName)}
            >
              {SIGNUP_POLICIES.map((name) => (
                <option key={name} value={name}>
                  {POLICY_LABELS[name]}
                </option>
              ))}
            </select>
          </label>
          <p className="text-sm text-zinc-600 dark:text-zinc-300">
            {signups.data.source === 'stored'
              ? `Chosen here, over SIGNUPS (${signups.data.environment_policy}).`
              : 'From SIGNUPS in the server’s environment.'}{' '}
            {signups.data.allowed_domains.length > 0 &&
              `Allowed domains: ${signups.data.allowed_domains.join(', ')}.`}
          </p>
          <div className="flex flex-wrap gap-2">
            <button type="submit" className={primaryButton} disabled={save.isPending}>
              Save sign-up policy
            </button>
            {signups.data.source === 'stored' && (
              <button
                type="button"
                className={secondaryButton}
                disabled={save.isPending}
                onClick={() => save.mutate(null)}
              >
                Use SIGNUPS again
              </button>
            )}
          </div>
          {save.isSuccess && <Alert tone="success">Sign-up policy saved.</Alert>}
          {save.isError && (
            <Alert tone="error">
              {errorMessage(save.error, 'Failed to save the sign-up policy')}
            </Alert>
          )}
        </form>
      )}
      <InviteToSignUp />
    </AdminCard>
  );
}

function InviteToSignUp() {
  const invite = useInviteToSignUp();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  return (
    <form
      className="mt-5 space-y-2 border-t border-zinc-200 pt-4 dark:border-zinc-800"
      onSubmit={(event) => {
        event.preventDefault();
        const address = email.trim();
        invite.mutate(address, {
          onSuccess: () => {
            setSentTo(address);
            setEmail('');
          },
        });
      }}
    >
      <TextField
        label="Invite someone to sign up"
        type="email"
        value={email}
        onValueChange={setEmail}
        placeholder="name@example.com"
        hint="They may make an account whatever the sign-up policy."
      />
      <button
        type="submit"
        className={secondaryButton}
        disabled={invite.isPending || !email.trim()}
      >
        Send invitation
      </button>
      {invite.isSuccess && sentTo && <Alert tone="success">Invitation sent to {sentTo}.</Alert>}
      {invite.isError && (
        <Alert tone="error">{errorMessage(invite.error, 'Failed to send the invitation')}</Alert>
      )}
    </form>
  );
}
