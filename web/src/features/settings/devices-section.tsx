import { useCallback, useEffect, useState } from 'react';
import type { DesktopDevice } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDate, formatRelativeTime } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { secondaryButton } from '../../ui/button-styles';
import { Spinner } from '../../ui/spinner';
import { PlayerApps } from './player-apps';
import { fetchDevices, revokeDevice } from './settings-api';

type Load =
  | { phase: 'loading' }
  | { phase: 'failed'; message: string }
  | { phase: 'ready'; devices: DesktopDevice[] };

type Result = { tone: 'success' | 'error'; message: string } | null;

/** The desktop apps and `takes` CLIs signed in to this account, each with 'Revoke'. */
export function DevicesSection() {
  const [load, setLoad] = useState<Load>({ phase: 'loading' });
  const [busyId, setBusyId] = useState<string | null>(null);
  const [result, setResult] = useState<Result>(null);

  const reload = useCallback(async (signal?: AbortSignal) => {
    try {
      setLoad({ phase: 'ready', devices: await fetchDevices(signal) });
    } catch (error) {
      if (signal?.aborted) return;
      setLoad({ phase: 'failed', message: errorMessage(error, 'Failed to load your devices') });
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void reload(controller.signal);
    return () => controller.abort();
  }, [reload]);

  async function onRevoke(device: DesktopDevice) {
    setBusyId(device.id);
    setResult(null);
    try {
      await revokeDevice(device.id);
      setResult({ tone: 'success', message: `${device.name} was signed out.` });
      await reload();
    } catch (error) {
      setResult({ tone: 'error', message: errorMessage(error, 'Failed to revoke the device') });
    } finally {
      setBusyId(null);
    }
  }

  return (
    <section aria-labelledby="devices-heading">
      <h2 id="devices-heading" className="text-lg font-semibold text-zinc-900 dark:text-white">
        Devices
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        The desktop app and the takes CLI stay signed in on their own. Revoke one you no longer use
        or do not recognise; it has to sign in again.
      </p>
      <div className="mt-3 flex flex-col gap-3">
        {load.phase === 'loading' && <Spinner label="Loading your devices" />}
        {load.phase === 'failed' && <Alert tone="error">{load.message}</Alert>}
        {load.phase === 'ready' && load.devices.length === 0 && (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            No desktop app or CLI is signed in to your account.
          </p>
        )}
        {load.phase === 'ready' && load.devices.length > 0 && (
          <ul
            aria-label="Signed-in devices"
            className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          >
            {load.devices.map((device) => (
              <li
                key={device.id}
                aria-label={device.name}
                className="flex flex-wrap items-center justify-between gap-3 px-4 py-3"
              >
                <div className="min-w-0">
                  <p className="truncate font-medium text-zinc-900 dark:text-white">
                    {device.name}
                  </p>
                  <p className="text-sm text-zinc-600 dark:text-zinc-400">
                    Signed in {formatDate(device.created_at)} · Last used{' '}
                    <time dateTime={device.last_used_at} title={device.last_used_at}>
                      {formatRelativeTime(device.last_used_at)}
                    </time>
                  </p>
                </div>
                <button
                  type="button"
                  className={secondaryButton}
                  disabled={busyId !== null}
                  aria-label={`Revoke ${device.name}`}
                  onClick={() => void onRevoke(device)}
                >
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        )}
        {result && <Alert tone={result.tone}>{result.message}</Alert>}
      </div>
      <div className="mt-8">
        <PlayerApps />
      </div>
    </section>
  );
}
