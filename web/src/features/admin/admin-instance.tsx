import { useEffect, useState } from 'react';
import { formatStorageBytes, STORAGE_KINDS } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { primaryButton } from '../../ui/button-styles';
import { inputClass } from '../../ui/text-field';
import {
  useAdminActions,
  useAdminLinkDefaults,
  useAdminStorage,
  useSetLinkDefaults,
} from './admin-api';
import { AdminCard } from './admin-card';

const KIND_LABELS: Record<(typeof STORAGE_KINDS)[number], string> = {
  originals: 'Originals',
  renditions: 'Renditions (MP3)',
  lossless: 'Lossless (FLAC)',
  images: 'Images',
  other: 'Other',
};

/** 'New share links': what the share dialogs start from on this instance. */
export function AdminLinkDefaults() {
  const defaults = useAdminLinkDefaults();
  const save = useSetLinkDefaults();
  const [days, setDays] = useState('');
  const [downloads, setDownloads] = useState(false);
  const [invalid, setInvalid] = useState<string | null>(null);
  useEffect(() => {
    if (!defaults.data) return;
    setDays(defaults.data.expires_in_days === null ? '' : String(defaults.data.expires_in_days));
    setDownloads(defaults.data.allow_downloads);
  }, [defaults.data]);
  if (defaults.isPending) return null;
  if (defaults.isError)
    return (
      <Alert tone="error">{errorMessage(defaults.error, 'Failed to load the defaults')}</Alert>
    );
  return (
    <AdminCard id="admin-link-defaults" title="New share links">
      <form
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = days.trim();
          const n = Number(trimmed);
          if (trimmed !== '' && !(Number.isInteger(n) && n >= 1 && n <= 3650)) {
            setInvalid('Enter a number of days from 1 to 3650, or leave it empty for never');
            return;
          }
          setInvalid(null);
          save.mutate({
            expires_in_days: trimmed === '' ? null : n,
            allow_downloads: downloads,
          });
        }}
      >
        <label className="block text-sm font-medium">
          Expire after (days)
          <input
            className={`${inputClass} mt-1 w-32 border-zinc-300 dark:border-zinc-700`}
            inputMode="numeric"
            placeholder="Never"
            value={days}
            onChange={(event) => setDays(event.target.value)}
          />
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={downloads}
            onChange={(event) => setDownloads(event.target.checked)}
          />
          Allow downloads
        </label>
        <button type="submit" className={primaryButton} disabled={save.isPending}>
          Save link defaults
        </button>
        {invalid && <Alert tone="error">{invalid}</Alert>}
        {save.isSuccess && <Alert tone="success">Link defaults saved.</Alert>}
        {save.isError && (
          <Alert tone="error">{errorMessage(save.error, 'Failed to save the link defaults')}</Alert>
        )}
      </form>
    </AdminCard>
  );
}

/** 'Storage used': in all and by kind. */
export function AdminStorage() {
  const storage = useAdminStorage();
  return (
    <AdminCard id="admin-storage" title="Storage used">
      {storage.isPending ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-300">Loading…</p>
      ) : storage.isError ? (
        <Alert tone="error">{errorMessage(storage.error, 'Failed to load the storage')}</Alert>
      ) : (
        <dl className="text-sm">
          <div className="flex justify-between py-1 font-semibold">
            <dt>In all</dt>
            <dd>{formatStorageBytes(storage.data.total_bytes)}</dd>
          </div>
          {STORAGE_KINDS.map((kind) => (
            <div key={kind} className="flex justify-between py-1">
              <dt className="text-zinc-600 dark:text-zinc-300">{KIND_LABELS[kind]}</dt>
              <dd>{formatStorageBytes(storage.data.by_kind[kind] ?? 0)}</dd>
            </div>
          ))}
        </dl>
      )}
    </AdminCard>
  );
}

/** 'Admin actions': every admin action, newest first. */
export function AdminActions() {
  const actions = useAdminActions();
  return (
    <AdminCard id="admin-actions" title="Admin actions">
      {actions.isPending ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-300">Loading…</p>
      ) : actions.isError ? (
        <Alert tone="error">
          {errorMessage(actions.error, 'Failed to load the admin actions')}
        </Alert>
      ) : actions.data.actions.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-300">No admin actions yet.</p>
      ) : (
        <ul className="divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
          {actions.data.actions.map((action) => (
            <li key={action.id} className="py-2">
              <span className="font-medium">{action.admin_email}</span> {action.action}
              {action.target_email ? ` ${action.target_email}` : ''}
              {action.detail ? ` ${JSON.stringify(action.detail)}` : ''}
              <span className="block text-xs text-zinc-500 dark:text-zinc-400">
                {formatDateTime(action.created_at)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </AdminCard>
  );
}
