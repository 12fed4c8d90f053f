import { useId, useState, type FormEvent } from 'react';
import { MEMBER_MESSAGES, MEMBER_ROLES, ROLE_LABELS, type MemberRole } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { primaryButton } from '../../ui/button-styles';
import { TextField } from '../../ui/text-field';
import { useInvite, type MembersTarget } from './members-api';
import { sectionHeading, selectClass, type Feedback } from './members-dialog-parts';

/** A plain check before asking the server, which has the last word on what an address is. */
function emailProblem(email: string): string | undefined {
  if (!email) return MEMBER_MESSAGES.emailRequired;
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) return MEMBER_MESSAGES.emailInvalid;
  return undefined;
}

/** 'Invite someone': an address and a role; the invitation goes out by email. */
export function InviteForm({ target }: { target: MembersTarget }) {
  const invite = useInvite(target);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('commenter');
  const [fieldError, setFieldError] = useState<string>();
  const [feedback, setFeedback] = useState<Feedback>(null);
  const headingId = useId();
  const roleId = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(null);
    const address = email.trim();
    const problem = emailProblem(address);
    setFieldError(problem);
    if (problem) return;
    invite.mutate(
      { email: address, role },
      {
        onSuccess: (invitation) => {
          setEmail('');
          setFeedback({ tone: 'success', text: `Invitation sent to ${invitation.email}.` });
        },
        onError: (error) =>
          setFeedback({
            tone: 'error',
            text: errorMessage(error, 'Failed to send the invitation'),
          }),
      },
    );
  }

  return (
    <section
      aria-labelledby={headingId}
      className="space-y-3 rounded-md bg-zinc-50 p-4 dark:bg-zinc-800/50"
    >
      <h3 id={headingId} className={sectionHeading}>
        Invite someone
      </h3>
      <form onSubmit={submit} noValidate className="space-y-3">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <div className="flex-1">
            <TextField
              label="Email"
              type="email"
              autoComplete="off"
              value={email}
              onValueChange={setEmail}
              error={fieldError}
            />
          </div>
          <div>
            <label
              htmlFor={roleId}
              className="block text-sm font-medium text-zinc-800 dark:text-zinc-200"
            >
              Role
            </label>
            <select
              id={roleId}
              className={`${selectClass} mt-1 py-2`}
              value={role}
              onChange={(event) => setRole(event.target.value as MemberRole)}
            >
              {MEMBER_ROLES.map((option) => (
                <option key={option} value={option}>
                  {ROLE_LABELS[option]}
                </option>
              ))}
            </select>
          </div>
        </div>
        {feedback && <Alert tone={feedback.tone}>{feedback.text}</Alert>}
        <div className="flex justify-end">
          <button type="submit" className={primaryButton} disabled={invite.isPending}>
            Invite
          </button>
        </div>
      </form>
    </section>
  );
}
