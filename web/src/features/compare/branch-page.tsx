import { Link, useParams } from 'react-router';
import type { Bounce } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { linkButton, secondaryButton } from '../../ui/button-styles';
import { BouncePlayButton } from '../bounces/bounce-play-button';
import { bounceTitle, bounceTrack } from '../bounces/bounce-track';
import { formatTime } from '../player/format-time';
import { useRepoBounces, useRepository } from '../repos/repos-api';
import { ComparePanel } from './compare-panel';
import type { Side } from './compare-logic';
import { useCompare, type CompareApi } from './use-compare';

/** While loading: one skeleton for the latest bounce plus five for the history. */
const HISTORY_SKELETONS = 5;

/** The branch's bounces: the latest pinned with a player, the history below, and the A/B compare. */
export function BranchPage() {
  const { repoId = '', name: rawName = '' } = useParams();
  const branch = safeDecode(rawName);
  const repo = useRepository(repoId);
  const bounces = useRepoBounces(repoId, branch, repoId !== '' && branch !== '');
  useDocumentTitle(`Branch: ${branch} · Takes`);
  const compare = useCompare();

  const repoName = repo.data?.name ?? '';
  const [latest, ...history] = bounces.data ?? [];

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-6">
      <header className="space-y-1">
        <Link to={`/repositories/${encodeURIComponent(repoId)}`} className={linkButton}>
          ← {repoName || 'Repository'}
        </Link>
        <h1 className="text-2xl font-bold text-zinc-900 dark:text-zinc-100">Branch: {branch}</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Latest bounce pinned with history below.
        </p>
      </header>

      {bounces.isPending ? (
        <BranchSkeleton />
      ) : bounces.isError ? (
        <Alert tone="error">{errorMessage(bounces.error, 'Failed to load')}</Alert>
      ) : !latest ? (
        <p className="rounded-lg border border-dashed border-zinc-300 p-8 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          No bounces on this branch yet.
        </p>
      ) : (
        <>
          <section aria-labelledby="latest-heading" className="space-y-2">
            <h2
              id="latest-heading"
              className="text-sm font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400"
            >
              Latest
            </h2>
            <BounceRow bounce={latest} repoName={repoName} compare={compare} pinned />
          </section>

          <ComparePanel compare={compare} />

          {history.length > 0 && (
            <section aria-labelledby="history-heading" className="space-y-2">
              <h2
                id="history-heading"
                className="text-sm font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400"
              >
                History
              </h2>
              <ul className="space-y-2">
                {history.map((bounce) => (
                  <li key={bounce.id}>
                    <BounceRow bounce={bounce} repoName={repoName} compare={compare} />
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </div>
  );
}

function BounceRow({
  bounce,
  repoName,
  compare,
  pinned = false,
}: {
  bounce: Bounce;
  repoName: string;
  compare: CompareApi;
  pinned?: boolean;
}) {
  const inSlot = (['A', 'B'] as const).filter((side) => compare.slots[side]?.id === bounce.id);
  const unusable = bounce.status === 'failed';
  return (
    <article
      data-testid="branch-bounce"
      data-bounce-id={bounce.id}
      className={`flex flex-wrap items-center gap-3 rounded-lg border bg-white p-3 dark:bg-zinc-900 ${
        pinned
          ? 'border-indigo-200 shadow-sm dark:border-indigo-900/60'
          : 'border-zinc-200 dark:border-zinc-800'
      }`}
    >
      {pinned && <BouncePlayButton track={bounceTrack(bounce, repoName)} disabled={unusable} />}
      <div className="min-w-0 flex-1">
        <p className="flex items-center gap-2 truncate font-medium text-zinc-900 dark:text-zinc-100">
          {bounceTitle(bounce)}
          {pinned && <Badge tone="indigo">Latest</Badge>}
          {bounce.status === 'processing' && <Badge tone="amber">Processing</Badge>}
          {bounce.status === 'failed' && <Badge tone="red">Failed</Badge>}
          {inSlot.map((side) => (
            <Badge key={side} tone="green">
              {side}
            </Badge>
          ))}
        </p>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          {formatDate(bounce.created_at)} · {formatTime(bounce.duration)} ·{' '}
          <span className="font-mono">{bounce.commit_sha.slice(0, 12)}</span>
        </p>
      </div>
      <div className="flex gap-2">
        {(['A', 'B'] as const).map((side: Side) => (
          <button
            key={side}
            type="button"
            className={secondaryButton}
            disabled={unusable}
            aria-pressed={compare.slots[side]?.id === bounce.id}
            onClick={() => compare.setSlot(side, bounce)}
          >
            Set {side}
          </button>
        ))}
      </div>
    </article>
  );
}

function BranchSkeleton() {
  return (
    <div className="animate-pulse space-y-3" role="status" aria-label="Loading bounces">
      <div className="h-20 rounded-lg bg-zinc-200 dark:bg-zinc-800" />
      {Array.from({ length: HISTORY_SKELETONS }, (_, i) => (
        <div key={i} className="h-14 rounded-lg bg-zinc-200 dark:bg-zinc-800" />
      ))}
    </div>
  );
}

/** Route params arrive encoded; a malformed escape is shown as typed rather than crashing. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
