import { useId, useState, type FormEvent } from 'react';
import {
  INVITE_LINK_DEFAULT_DAYS,
  INVITE_LINK_DEFAULT_USES,
  INVITE_LINK_MAX_DAYS,
  INVITE_LINK_MAX_USES,
  INVITE_LINK_MESSAGES,
  INVITE_LINK_MIN_USES,
  INVITE_LINK_NAME_MAX_LENGTH,
  inviteLinkUsesLeft,
  MEMBER_ROLES,
  ROLE_LABELS,
  type InviteLink,
  type MemberRole,
} from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { primaryButton } from '../../ui/button-styles';
import { TextField } from '../../ui/text-field';
import { CopyLinkField, useCopied } from '../share/copy-link-field';
import { useCreateInviteLink, useInviteLinks, useRevokeInviteLink } from './doors-api';
import { sectionHeading, selectClass, smallButton, type Feedback } from './members-dialog-parts';

/** A whole number within the bounds, else undefined. */
function wholeIn(value: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(value.trim())) return undefined;
  const n = Number(value);
  return n >= min && n <= max ? n : undefined;
}

/**
 * 'Invite links', for a project's owner: the live links with their uses left, each to copy or
 * 'Revoke', and a form making a new one (a role, 1–50 uses, up to 30 days) to paste in a group
 * chat.
 */
export function InviteLinksSection({ projectId }: { projectId: string }) {
  const links = useInviteLinks(projectId);
  const revoke = useRevokeInviteLink(projectId);
  const [copied, setCopied] = useCopied<string>();
  const [feedback, setFeedback] = useState<Feedback>(null);
  const headingId = useId();
  const live = links.data?.links ?? [];

  function onRevoke(link: InviteLink) {
    setFeedback(null);
    revoke.mutate(link.id, {
      onSuccess: () =>
        setFeedback({ tone: 'success', text: `Invite link '${link.name}' revoked.` }),
      onError: (error) =>
        setFeedback({
          tone: 'error',
          text: errorMessage(error, 'Failed to revoke the invite link'),
        }),
    });
  }

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h3 id={headingId} className={sectionHeading}>
        Invite links ({live.length})
      </h3>
      {links.isError ? (
        <Alert tone="error">{errorMessage(links.error, 'Failed to load invite links')}</Alert>
      ) : live.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No live invite links.</p>
      ) : (
        <ul aria-label="Invite links" className="space-y-3">
          {live.map((link) => (
            <li key={link.id} data-invite-link={link.name} className="space-y-1">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="text-sm">
                  <span className="font-medium text-zinc-900 dark:text-white">{link.name}</span>{' '}
                  <span className="text-zinc-600 dark:text-zinc-400">
                    · {ROLE_LABELS[link.role]} · {inviteLinkUsesLeft(link.uses_left, link.max_uses)}{' '}
                    · Expires <time dateTime={link.expires_at}>{formatDate(link.expires_at)}</time>
                  </span>
                </p>
                <button
                  type="button"
                  className={`${smallButton} text-red-700 dark:text-red-400`}
                  disabled={revoke.isPending && revoke.variables === link.id}
                  aria-label={`Revoke invite link ${link.name}`}
                  onClick={() => onRevoke(link)}
                >
                  Revoke
                </button>
              </div>
              <CopyLinkField
                label={`Invite link: ${link.name}`}
                url={link.url}
                copied={copied === link.id}
                onCopied={() => setCopied(link.id)}
                copyLabelSuffix={link.name}
              />
            </li>
          ))}
        </ul>
      )}
      {feedback && <Alert tone={feedback.tone}>{feedback.text}</Alert>}
      <MakeInviteLinkForm projectId={projectId} />
    </section>
  );
}

function MakeInviteLinkForm({ projectId }: { projectId: string }) {
  const create = useCreateInviteLink(projectId);
  const [name, setName] = useState('');
  const [role, setRole] = useState<MemberRole>('viewer');
  const [uses, setUses] = useState(String(INVITE_LINK_DEFAULT_USES));
  const [days, setDays] = useState(String(INVITE_LINK_DEFAULT_DAYS));
  const [errors, setErrors] = useState<{ name?: string; uses?: string; days?: string }>({});
  const roleId = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const maxUses = wholeIn(uses, INVITE_LINK_MIN_USES, INVITE_LINK_MAX_USES);
    const expiresInDays = wholeIn(days, 1, INVITE_LINK_MAX_DAYS);
    const problems = {
      name:
        name.trim().length > INVITE_LINK_NAME_MAX_LENGTH
          ? INVITE_LINK_MESSAGES.nameTooLong
          : undefined,
      uses: maxUses === undefined ? INVITE_LINK_MESSAGES.usesInvalid : undefined,
      days: expiresInDays === undefined ? INVITE_LINK_MESSAGES.daysInvalid : undefined,
    };
    setErrors(problems);
    if (problems.name || maxUses === undefined || expiresInDays === undefined) return;
    create.mutate(
      {
        ...(name.trim() ? { name: name.trim() } : {}),
        role,
        max_uses: maxUses,
        expires_in_days: expiresInDays,
      },
      { onSuccess: () => setName('') },
    );
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Make an invite link"
      className="space-y-3 rounded-md bg-zinc-50 p-4 dark:bg-zinc-800/50"
    >
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Make a link to paste in a group chat: whoever opens it signed in joins at its role.
      </p>
      <TextField
        label="Link name"
        placeholder="Band chat"
        value={name}
        onValueChange={setName}
        error={errors.name}
      />
      <div className="flex flex-wrap gap-3">
        <div>
          <label
            htmlFor={roleId}
            className="block text-sm font-medium text-zinc-800 dark:text-zinc-200"
          >
            Link role
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
        <div className="w-28">
          <TextField
            label="Uses"
            inputMode="numeric"
            value={uses}
            onValueChange={setUses}
            error={errors.uses}
          />
        </div>
        <div className="w-36">
          <TextField
            label="Expires in (days)"
            inputMode="numeric"
            value={days}
            onValueChange={setDays}
            error={errors.days}
          />
        </div>
      </div>
      {create.isError && (
        <Alert tone="error">{errorMessage(create.error, 'Failed to make the invite link')}</Alert>
      )}
      <div className="flex justify-end">
        <button type="submit" className={primaryButton} disabled={create.isPending}>
          Make invite link
        </button>
      </div>
    </form>
  );
}
