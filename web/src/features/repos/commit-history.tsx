import { Link } from 'react-router';
import type { Bounce, TimelineCommit } from '@takes/contract';
import { formatDate, formatRelativeTime } from '../../lib/format';
import { Badge } from '../../ui/badge';
import { Spinner } from '../../ui/spinner';
import { BouncePlayButton } from '../bounces/bounce-play-button';
import { bounceTitle, bounceTrack } from '../bounces/bounce-track';
import { shortSha } from './branch-selection';
import { panelClass } from './branch-list';

interface CommitHistoryProps {
  repoId: string;
  repoName: string;
  commits: TimelineCommit[];
  /** Shown in the heading: all commits, even when only the newest are listed. */
  count: number;
  bounces: Bounce[];
  loading: boolean;
  /** Legacy patches have no commit page of their own. */
  linkCommits: boolean;
}

export function commitPagePath(repoId: string, sha: string): string {
  return `/repositories/${repoId}/commit/${sha}`;
}

/** The timeline: each commit (newest first) with the bounces published onto it. */
export function CommitHistory(props: CommitHistoryProps) {
  const { commits, bounces } = props;
  const bouncesBySha = new Map<string, Bounce[]>();
  for (const bounce of bounces) {
    const list = bouncesBySha.get(bounce.commit_sha) ?? [];
    list.push(bounce);
    bouncesBySha.set(bounce.commit_sha, list);
  }

  return (
    <section aria-labelledby="commit-history-heading" className={panelClass}>
      <h2 id="commit-history-heading" className="text-lg font-semibold">
        Commit History ({props.count})
      </h2>
      {props.loading ? (
        <div className="flex justify-center py-6">
          <Spinner label="Loading commits" />
        </div>
      ) : commits.length === 0 ? (
        <p className="py-6 text-center text-sm text-zinc-600 dark:text-zinc-300">No commits yet.</p>
      ) : (
        <ol
          aria-label="Timeline"
          className="relative mt-4 ml-2 space-y-4 border-l border-zinc-200 dark:border-zinc-700"
        >
          {commits.map((commit) => (
            <CommitRow
              key={commit.sha}
              {...props}
              commit={commit}
              commitBounces={bouncesBySha.get(commit.sha) ?? []}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

function CommitRow({
  repoId,
  repoName,
  commit,
  commitBounces,
  linkCommits,
}: CommitHistoryProps & { commit: TimelineCommit; commitBounces: Bounce[] }) {
  const hasBounce = commit.has_bounce || commitBounces.length > 0;
  const body = (
    <>
      <span className="block font-medium break-words">{commit.message || '(no message)'}</span>
      <span className="mt-0.5 flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono dark:bg-zinc-800">
          {shortSha(commit.sha)}
        </code>
        <time dateTime={commit.created_at} title={formatDate(commit.created_at)}>
          {formatRelativeTime(commit.created_at)}
        </time>
        {hasBounce && <Badge tone="green">has bounce</Badge>}
      </span>
    </>
  );
  return (
    <li data-sha={commit.sha} className="relative pl-5">
      <span
        aria-hidden="true"
        className={`absolute top-1.5 -left-[5px] size-2.5 rounded-full ${
          hasBounce ? 'bg-emerald-500' : 'bg-zinc-400 dark:bg-zinc-500'
        }`}
      />
      {linkCommits ? (
        <Link
          to={commitPagePath(repoId, commit.sha)}
          className="block rounded-md px-2 py-1 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-zinc-800"
        >
          {body}
        </Link>
      ) : (
        <div className="px-2 py-1">{body}</div>
      )}
      {commitBounces.length > 0 && (
        <ul aria-label={`Bounces of ${shortSha(commit.sha)}`} className="mt-1 space-y-1 pl-2">
          {commitBounces.map((bounce) => (
            <li key={bounce.id} className="flex items-center gap-2 text-sm">
              <BouncePlayButton
                track={bounceTrack(bounce, repoName)}
                disabled={bounce.status === 'failed'}
                variant="small"
              />
              <span className="truncate">{bounceTitle(bounce)}</span>
              {bounce.status === 'processing' && <Badge tone="amber">Processing</Badge>}
              {bounce.status === 'failed' && <Badge tone="red">Failed</Badge>}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
