import { PLAYER_APP_WORDS, type PlayerApp } from '@takes/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/api';
import { formatDate, formatRelativeTime } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { secondaryButton } from '../../ui/button-styles';
import { ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { Spinner } from '../../ui/spinner';
import { AddPlayerApp } from './add-player-app';
import { fetchPlayerApps, revokePlayerApp } from './player-apps-api';

type Load =
  | { phase: 'loading' }
  | { phase: 'failed'; message: string }
  | { phase: 'ready'; playerApps: PlayerApp[] };

type Result = { tone: 'success' | 'error'; message: string } | null;

/**
 * Settings → Devices → 'Player apps': the OpenSubsonic keys a person made for Subsonic player
 * apps (Symfonium, Amperfy, DSub…), when each was last used and by which app, 'Revoke', and
 * 'Add a player app', which shows a new key once.
 */
export function PlayerApps() {
  const [load, setLoad] = useState<Load>({ phase: 'loading' });
  const [revoking, setRevoking] = useState<PlayerApp | null>(null);
  const [pending, setPending] = useState(false);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const [result, setResult] = useState<Result>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // After a revoke its row and button are gone: the heading takes the focus back from the dialog
  // (after the dialog's own clean-up has handed it back to the button it was opened from).
  const focusHeading = useRef(false);

  useEffect(() => {
    if (!focusHeading.current) return;
    focusHeading.current = false;
    headingRef.current?.focus();
  });

  const reload = useCallback(async (signal?: AbortSignal) => {
    try {
      const body = await fetchPlayerApps(signal);
      setLoad({ phase: 'ready', playerApps: body.player_apps });
    } catch (error) {
      if (signal?.aborted) return;
      setLoad({ phase: 'failed', message: errorMessage(error, 'Failed to load your player apps') });
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void reload(controller.signal);
    return () => controller.abort();
  }, [reload]);

  function closeConfirm() {
    setRevoking(null);
    setRevokeError(null);
  }

  async function onConfirmRevoke(playerApp: PlayerApp) {
    setPending(true);
    setRevokeError(null);
    try {
      await revokePlayerApp(playerApp.id);
      focusHeading.current = true;
      closeConfirm();
      setResult({
        tone: 'success',
        message: `${playerApp.name} was revoked. Its player app can no longer play your music.`,
      });
      await reload();
    } catch (error) {
      setRevokeError(errorMessage(error, 'Failed to revoke the player app'));
    } finally {
      setPending(false);
    }
  }

  return (
    <section aria-labelledby="player-apps-heading" className="flex flex-col gap-3">
      <div>
        <h3
          id="player-apps-heading"
          ref={headingRef}
          tabIndex={-1}
          className="text-base font-semibold text-zinc-900 focus:outline-none dark:text-white"
        >
          {PLAYER_APP_WORDS.heading}
        </h3>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Any OpenSubsonic or Subsonic player app (Symfonium, Amperfy, Tempo, Substreamer, play:Sub,
          DSub…) can play your projects, repositories and collections with a key made here. A key
          can only listen: it cannot change anything.
        </p>
      </div>
      {load.phase === 'loading' && <Spinner label="Loading your player apps" />}
      {load.phase === 'failed' && <Alert tone="error">{load.message}</Alert>}
      {load.phase === 'ready' && load.playerApps.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No player app has a key yet.</p>
      )}
      {load.phase === 'ready' && load.playerApps.length > 0 && (
        <ul
          aria-label="Player app keys"
          className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
        >
          {load.playerApps.map((playerApp) => (
            <PlayerAppRow
              key={playerApp.id}
              playerApp={playerApp}
              onRevoke={() => {
                setResult(null);
                setRevoking(playerApp);
              }}
            />
          ))}
        </ul>
      )}
      {result && <Alert tone={result.tone}>{result.message}</Alert>}
      <AddPlayerApp
        onCreated={() => {
          setResult(null);
          void reload();
        }}
      />
      {revoking && (
        <ConfirmDeleteModal
          title="Revoke player app"
          description={`Revoke the key of “${revoking.name}”? That player app can no longer play your music; to use it again, add it with a new key.`}
          confirmLabel={PLAYER_APP_WORDS.revoke}
          pendingLabel="Revoking..."
          pending={pending}
          error={revokeError}
          onClose={closeConfirm}
          onConfirm={() => void onConfirmRevoke(revoking)}
        />
      )}
    </section>
  );
}

function PlayerAppRow({ playerApp, onRevoke }: { playerApp: PlayerApp; onRevoke: () => void }) {
  const lastUsed = playerApp.last_used_at;
  return (
    <li
      aria-label={playerApp.name}
      className="flex flex-wrap items-center justify-between gap-3 px-4 py-3"
    >
      <div className="min-w-0">
        <p className="font-medium break-words text-zinc-900 dark:text-white">{playerApp.name}</p>
        {playerApp.latest_only && (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{PLAYER_APP_WORDS.latestOnly}</p>
        )}
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Key <span className="font-mono">{playerApp.key_prefix}…</span> · Added{' '}
          {formatDate(playerApp.created_at)}
        </p>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {lastUsed ? (
            <>
              Last used{' '}
              <time dateTime={lastUsed} title={lastUsed}>
                {formatRelativeTime(lastUsed)}
              </time>
              {playerApp.last_client ? ` by ${playerApp.last_client}` : ''}
            </>
          ) : (
            PLAYER_APP_WORDS.neverUsed
          )}
        </p>
      </div>
      <button
        type="button"
        className={secondaryButton}
        aria-label={`${PLAYER_APP_WORDS.revoke} ${playerApp.name}`}
        onClick={onRevoke}
      >
        {PLAYER_APP_WORDS.revoke}
      </button>
    </li>
  );
}
