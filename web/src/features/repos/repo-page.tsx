import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { Repository } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/use-document-title';
import { primaryButton } from '../../ui/button-styles';
import { ActivityPanel } from '../activity/activity-panel';
import { bounceTitle } from '../bounces/bounce-track';
import { AddToCollectionButton } from '../collections/add-to-collection';
import { GuestFilesSection } from '../guest-upload/guest-files-section';
import { useMarkTargetRead } from '../notifications/use-mark-target-read';
import { BranchList, RepoInfoBox } from './branch-list';
import { patchAsCommit, PSEUDO_BRANCH, resolveBranchView } from './branch-selection';
import { CommitHistory } from './commit-history';
import { ActivityList, NowPreviewing } from './repo-activity';
import { RepoHeader } from './repo-header';
import {
  useRepoBounces,
  useRepoBranches,
  useRepoCommits,
  useRepoPatches,
  useRepository,
} from './repos-api';

export function RepoPage() {
  const { repoId = '' } = useParams();
  const repo = useRepository(repoId);
  useDocumentTitle(repo.data ? `${repo.data.name} · Takes` : 'Repository · Takes');

  if (repo.isPending) return <RepoSkeleton />;
  if (repo.isError) {
    return (
      <div className="mx-auto max-w-xl px-4 py-16">
        <div
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 p-6 text-center dark:border-red-900/60 dark:bg-red-950/40"
        >
          <p className="text-red-900 dark:text-red-100">
            {errorMessage(repo.error, 'Failed to load')}
          </p>
          <Link to="/repositories" className={`${primaryButton} mt-4`}>
            Back to Repositories
          </Link>
        </div>
      </div>
    );
  }
  return <RepoWorkspace repo={repo.data} />;
}

function RepoWorkspace({ repo }: { repo: Repository }) {
  // Reading the repository marks its notifications (commits, bounces, members) read.
  useMarkTargetRead(`/repositories/${repo.id}`, true);
  const [branchChoice, setBranchChoice] = useState<string>();
  const [previewChoice, setPreviewChoice] = useState<string | null>(null);

  const branches = useRepoBranches(repo.id);
  const noBranches = branches.isSuccess && branches.data.length === 0;
  // With no branches but patches, a pseudo-branch main reads the patches.
  const patches = useRepoPatches(repo.id, noBranches);
  const view = resolveBranchView(branches.data ?? [], patches.data?.total ?? 0, branchChoice);
  const realBranch = view.source === 'commits' ? view.selected : null;
  const commits = useRepoCommits(repo.id, realBranch);
  const bounces = useRepoBounces(repo.id, realBranch, branches.isSuccess);

  const commitList =
    view.source === 'patches'
      ? (patches.data?.data ?? []).map(patchAsCommit)
      : view.source === 'commits'
        ? (commits.data ?? [])
        : [];
  const commitCount = view.source === 'patches' ? (patches.data?.total ?? 0) : commitList.length;
  const commitsLoading =
    branches.isPending ||
    (noBranches && patches.isPending) ||
    (view.source === 'commits' && commits.isPending);

  const bounceList = bounces.data ?? [];
  const preview = bounceList.find((b) => b.id === previewChoice) ?? bounceList[0] ?? null;
  const errors = [branches.error, patches.error, commits.error, bounces.error]
    .filter((error): error is Error => error !== null)
    // ApiError's message is the server's, else the fallback its request named.
    .map((error) => error.message || 'Failed to load');

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-6">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link
          to="/repositories"
          className="text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300"
        >
          Repositories
        </Link>
      </nav>
      <RepoHeader
        repo={repo}
        publishBranch={view.selected ?? PSEUDO_BRANCH}
        onPublished={(bounce) => {
          setBranchChoice(bounce.branch);
          setPreviewChoice(bounce.id);
        }}
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
        <div className="space-y-6">
          <BranchList
            repoId={repo.id}
            items={view.items}
            selected={view.selected}
            loading={branches.isPending}
            onSelect={(name) => {
              setBranchChoice(name);
              setPreviewChoice(null);
            }}
          />
          <RepoInfoBox repoId={repo.id} branch={view.selected} />
          <ActivityPanel source={{ repoId: repo.id }} />
        </div>
        <div className="space-y-6">
          {preview && (
            <div className="space-y-2">
              <NowPreviewing bounce={preview} repoName={repo.name} coverUrl={repo.cover_url} />
              <div className="flex justify-end">
                <AddToCollectionButton
                  key={preview.id}
                  target={{ kind: 'bounce', bounceId: preview.id, title: bounceTitle(preview) }}
                />
              </div>
            </div>
          )}
          <ActivityList
            bounces={bounceList}
            repoName={repo.name}
            loading={!branches.isError && (branches.isPending || bounces.isPending)}
            selectedId={preview?.id ?? null}
            onSelect={setPreviewChoice}
          />
          {errors.length > 0 && (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {[...new Set(errors)].join(' · ')}
            </p>
          )}
          {realBranch && branches.isSuccess ? (
            // Files guests sent through the repository's upload links, waiting on this branch.
            <GuestFilesSection
              target={{
                kind: 'repo',
                repoId: repo.id,
                name: repo.name,
                branch: { name: realBranch },
              }}
              role={repo.role}
            />
          ) : null}
          <CommitHistory
            repoId={repo.id}
            repoName={repo.name}
            commits={commitList}
            count={commitCount}
            bounces={bounceList}
            loading={commitsLoading && errors.length === 0}
            linkCommits={view.source === 'commits'}
          />
        </div>
      </div>
    </div>
  );
}

function RepoSkeleton() {
  return (
    <div
      className="mx-auto max-w-6xl animate-pulse space-y-6 px-4 py-8 sm:px-6"
      role="status"
      aria-label="Loading repository"
    >
      <div className="flex gap-6">
        <div className="size-32 rounded-lg bg-zinc-200 dark:bg-zinc-800" />
        <div className="flex-1 space-y-3">
          <div className="h-8 w-2/3 rounded bg-zinc-200 dark:bg-zinc-800" />
          <div className="h-4 w-1/2 rounded bg-zinc-200 dark:bg-zinc-800" />
        </div>
      </div>
      <div className="grid gap-6 lg:grid-cols-[1fr_2fr]">
        <div className="h-64 rounded-lg bg-zinc-200 dark:bg-zinc-800" />
        <div className="h-64 rounded-lg bg-zinc-200 dark:bg-zinc-800" />
      </div>
    </div>
  );
}
