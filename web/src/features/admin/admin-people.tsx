import { useState } from 'react';
import { formatStorageBytes } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDate, formatDateTime } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { dangerButton, secondaryButton } from '../../ui/button-styles';
import { inputClass } from '../../ui/text-field';
import {
  useAdminUsers,
  useDisableUser,
  useEnableUser,
  useSetUserQuota,
  type AdminUser,
} from './admin-api';
import { AdminCard } from './admin-card';

const GB = 1024 ** 3;

/** 'People': everyone with an account, with 'Disable' / 'Enable' and their own quota. */
export function AdminPeople() {
  const users = useAdminUsers();
  return (
    <AdminCard id="admin-people" title="People">
      {users.isPending ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-300">Loading…</p>
      ) : users.isError ? (
        <Alert tone="error">{errorMessage(users.error, 'Failed to load the people')}</Alert>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="min-w-full divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
            <thead>
              <tr className="text-left text-zinc-600 dark:text-zinc-300">
                <th className="py-2 pr-4 font-medium">Name</th>
                <th className="py-2 pr-4 font-medium">Email</th>
                <th className="py-2 pr-4 font-medium">Joined</th>
                <th className="py-2 pr-4 font-medium">Last seen</th>
                <th className="py-2 pr-4 font-medium">Storage used</th>
                <th className="py-2 pr-4 font-medium">Projects</th>
                <th className="py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {users.data.users.map((user) => (
                <PersonRow key={user.id} user={user} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AdminCard>
  );
}

function PersonRow({ user }: { user: AdminUser }) {
  const disable = useDisableUser();
  const enable = useEnableUser();
  const [asking, setAsking] = useState(false);
  const [keepLinks, setKeepLinks] = useState(true);
  const failed = disable.error ?? enable.error;
  return (
    <tr aria-label={user.email} className="align-top">
      <td className="py-2 pr-4">
        {user.name} {user.admin && <Badge tone="neutral">Admin</Badge>}{' '}
        {user.disabled_at && <Badge tone="red">Disabled</Badge>}
      </td>
      <td className="py-2 pr-4 break-all">{user.email}</td>
      <td className="py-2 pr-4 whitespace-nowrap">{formatDate(user.joined_at)}</td>
      <td className="py-2 pr-4 whitespace-nowrap">
        {user.last_seen_at ? formatDateTime(user.last_seen_at) : '—'}
      </td>
      <td className="py-2 pr-4 whitespace-nowrap">
        <QuotaCell user={user} />
      </td>
      <td className="py-2 pr-4">{user.projects}</td>
      <td className="py-2">
        {user.disabled_at ? (
          <button
            type="button"
            className={secondaryButton}
            disabled={enable.isPending}
            onClick={() => enable.mutate(user.id)}
          >
            Enable
          </button>
        ) : asking ? (
          <fieldset className="space-y-1">
            <legend className="text-xs text-zinc-600 dark:text-zinc-300">Their share links</legend>
            <label className="flex items-center gap-2 text-xs">
              <input type="radio" checked={keepLinks} onChange={() => setKeepLinks(true)} />
              Keep working
            </label>
            <label className="flex items-center gap-2 text-xs">
              <input type="radio" checked={!keepLinks} onChange={() => setKeepLinks(false)} />
              Stop working
            </label>
            <div className="flex gap-2 pt-1">
              <button
                type="button"
                className={dangerButton}
                disabled={disable.isPending}
                onClick={() =>
                  disable.mutate({ id: user.id, keepLinks }, { onSuccess: () => setAsking(false) })
                }
              >
                Disable {user.name || user.email}
              </button>
              <button type="button" className={secondaryButton} onClick={() => setAsking(false)}>
                Cancel
              </button>
            </div>
          </fieldset>
        ) : (
          <button type="button" className={secondaryButton} onClick={() => setAsking(true)}>
            Disable
          </button>
        )}
        {failed && (
          <Alert tone="error" className="mt-2">
            {errorMessage(failed, 'That did not work')}
          </Alert>
        )}
      </td>
    </tr>
  );
}

/** Storage used, of the quota that applies; an admin sets a person's own quota in GB here. */
function QuotaCell({ user }: { user: AdminUser }) {
  const setQuota = useSetUserQuota();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const used = formatStorageBytes(user.storage_used_bytes);
  const shown =
    user.effective_quota_bytes === null
      ? used
      : `${used} of ${formatStorageBytes(user.effective_quota_bytes)}`;
  if (!editing) {
    return (
      <span>
        {shown}{' '}
        <button
          type="button"
          className="text-xs text-indigo-600 hover:underline dark:text-indigo-400"
          aria-label={`Set the quota of ${user.email}`}
          onClick={() => {
            setValue(user.storage_quota_bytes ? String(user.storage_quota_bytes / GB) : '');
            setEditing(true);
          }}
        >
          Quota
        </button>
      </span>
    );
  }
  const save = () => {
    const trimmed = value.trim();
    const gb = Number(trimmed);
    if (trimmed !== '' && !(Number.isFinite(gb) && gb > 0)) {
      setInvalid('Enter a size in GB, or leave it empty for the instance’s quota');
      return;
    }
    setInvalid(null);
    setQuota.mutate(
      { id: user.id, bytes: trimmed === '' ? null : Math.round(gb * GB) },
      { onSuccess: () => setEditing(false) },
    );
  };
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <label className="text-xs">
        Quota (GB)
        <input
          className={`${inputClass} mt-1 w-24 border-zinc-300 dark:border-zinc-700`}
          inputMode="decimal"
          value={value}
          placeholder="Instance"
          onChange={(event) => setValue(event.target.value)}
        />
      </label>
      <button type="submit" className={secondaryButton} disabled={setQuota.isPending}>
        Save quota
      </button>
      {(invalid ?? setQuota.error) && (
        <Alert tone="error">
          {invalid ?? errorMessage(setQuota.error, 'Failed to set the quota')}
        </Alert>
      )}
    </form>
  );
}
