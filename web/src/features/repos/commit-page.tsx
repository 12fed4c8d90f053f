import { Link, useParams } from 'react-router';
import type { Bounce } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { BouncePlayButton } from '../bounces/bounce-play-button';
import { bounceTrack } from '../bounces/bounce-track';
import { BounceWaveform } from '../bounces/bounce-waveform';
import { shortSha } from './branch-selection';
import { panelClass } from './branch-list';
import { useCommitBounces, useRepository } from './repos-api';
import { useMarkTargetRead } from '../notifications/use-mark-target-read';

/** The commit page shows 3 skeletons while it loads. */
const SKELETONS = 3;

export function CommitPage() {
  const { repoId = '', sha = '' } = useParams();
  const repo = useRepository(repoId);
  const bounces = useCommitBounces(repoId, sha);
  useDocumentTitle(`Commit ${shortSha(sha)} · Takes`);
  // Reading a commit marks the notifications that link to it read.
  useMarkTargetRead(`/repositories/${repoId}/commit/${sha}`, repo.isSuccess);
  const repoName = repo.data?.name ?? '';

  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:px-6">
      <nav aria-label="Breadcrumb" className="flex flex-wrap gap-1 text-sm">
        <Link to="/repositories" className="text-indigo-700 hover:underline dark:text-indigo-300">
          Repositories
        </Link>
        <span aria-hidden="true">/</span>
        <Link
          to={`/repositories/${repoId}`}
          className="text-indigo-700 hover:underline dark:text-indigo-300"
        >
          {repoName || 'Repository'}
        </Link>
      </nav>
      <h1 className="text-2xl font-bold tracking-tight text-zinc-900 dark:text-white">
        Commit <code className="font-mono">{shortSha(sha)}</code>
      </h1>

      {bounces.isPending ? (
        <div role="status" aria-label="Loading bounces" className="space-y-4">
          {Array.from({ length: SKELETONS }, (_, i) => (
            <div
              key={i}
              data-testid="bounce-skeleton"
              className="h-40 animate-pulse rounded-lg bg-zinc-200 dark:bg-zinc-800"
            />
          ))}
        </div>
      ) : bounces.isError ? (
        <Alert tone="error">{errorMessage(bounces.error, 'Failed to load')}</Alert>
      ) : bounces.data.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-12 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-300">
          No bounces for this commit yet.
        </p>
      ) : (
        <ul aria-label="Commit bounces" className="space-y-4">
          {bounces.data.map((bounce) => (
            <CommitBounceCard
              key={bounce.id}
              bounce={bounce}
              repoName={repoName || bounce.repo_name}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function CommitBounceCard({ bounce, repoName }: { bounce: Bounce; repoName: string }) {
  const track = bounceTrack(bounce, repoName);
  const title = bounce.title || bounce.filename;
  return (
    <li className={panelClass}>
      <article aria-label={title}>
        <p className="text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">
          Commit bounces
        </p>
        <div className="mt-1 flex items-center gap-3">
          <BouncePlayButton track={track} disabled={bounce.status === 'failed'} />
          <div className="min-w-0 flex-1">
            <h2 className="flex flex-wrap items-center gap-2 font-semibold break-words">
              {title}
              {bounce.status === 'processing' && <Badge tone="amber">Processing</Badge>}
              {bounce.status === 'failed' && <Badge tone="red">Failed</Badge>}
            </h2>
            <p className="text-xs text-zinc-600 dark:text-zinc-300">
              {formatDate(bounce.created_at)} · {bounce.branch}
            </p>
          </div>
        </div>
        <div className="mt-3">
          <BounceWaveform track={track} waveform={bounce.waveform_json} height={80} />
        </div>
        <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm text-zinc-600 dark:text-zinc-300">
          <div className="flex gap-1">
            <dt>Type:</dt>
            <dd>{bounce.mime}</dd>
          </div>
          <div className="flex gap-1">
            <dt>Duration:</dt>
            <dd>{bounce.duration === null ? '—' : `${Math.round(bounce.duration)}s`}</dd>
          </div>
        </dl>
      </article>
    </li>
  );
}
