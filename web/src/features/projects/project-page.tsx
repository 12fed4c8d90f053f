import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { BranchWithVersions } from '@takes/contract';
import { ApiError, errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/use-document-title';
import { primaryButton } from '../../ui/button-styles';
import { BranchesPanel } from './branches-panel';
import { CreateBranchModal } from './create-branch-modal';
import { ProjectHeader } from './project-header';
import {
  isProcessingDone,
  queryKeys,
  useBranches,
  useProcessingStatus,
  useProject,
  useRefreshWorkspace,
} from './projects-api';
import { UploadVersionModal } from './upload-version-modal';
import { VersionsPanel } from './versions-panel';

const POLL_MS = 3000;
const POLL_AFTER_UPLOAD_MS = 2000;

/** undefined: not chosen yet, so the default rule applies; null: cleared on purpose. */
type Choice = string | null | undefined;

export function ProjectPage() {
  const { projectId = '' } = useParams();
  const project = useProject(projectId);
  const branches = useBranches(projectId);
  useDocumentTitle(project.data ? `${project.data.name} · Takes` : 'Project · Takes');

  if (project.isPending || (project.isSuccess && branches.isPending)) return <ProjectSkeleton />;
  if (project.isError) {
    const error = project.error;
    if (error instanceof ApiError && [400, 403, 404].includes(error.status)) {
      return (
        <StateBox title="Project not found">
          The project you&apos;re looking for doesn&apos;t exist or you don&apos;t have permission
          to view it.
        </StateBox>
      );
    }
    return (
      <StateBox title="Error loading project">
        {errorMessage(error, 'Failed to load project')}
      </StateBox>
    );
  }
  if (branches.isError) {
    return (
      <StateBox title="Error loading project">
        {errorMessage(branches.error, 'Failed to load branches')}
      </StateBox>
    );
  }
  return <ProjectWorkspace projectId={projectId} branches={branches.data ?? []} />;
}

function ProjectWorkspace({
  projectId,
  branches,
}: {
  projectId: string;
  branches: BranchWithVersions[];
}) {
  const project = useProject(projectId).data;
  const queryClient = useQueryClient();
  const refreshWorkspace = useRefreshWorkspace();
  const [branchChoice, setBranchChoice] = useState<Choice>(undefined);
  const [versionChoice, setVersionChoice] = useState<Choice>(undefined);
  const [creatingBranch, setCreatingBranch] = useState(false);
  const [uploadTarget, setUploadTarget] = useState<BranchWithVersions | null>(null);
  const [uploadedVersionId, setUploadedVersionId] = useState<string | null>(null);

  // Branch selection: the default branch, else the first; its first version.
  const selectedBranch =
    branchChoice === null
      ? null
      : (branches.find((b) => b.id === branchChoice) ??
        branches.find((b) => b.is_default) ??
        branches[0] ??
        null);
  const selectedVersion =
    selectedBranch?.versions.find((v) => v.id === versionChoice) ??
    selectedBranch?.versions[0] ??
    null;

  const pollId =
    uploadedVersionId ?? (selectedVersion?.status === 'processing' ? selectedVersion.id : null);
  const processing = useProcessingStatus(
    pollId,
    uploadedVersionId ? POLL_AFTER_UPLOAD_MS : POLL_MS,
  );
  const processingDone = isProcessingDone(processing.data);
  useEffect(() => {
    // The version's own status changes when processing ends; reload the branch lists.
    if (pollId && processingDone) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.branches(projectId) });
    }
  }, [pollId, processingDone, projectId, queryClient]);

  if (!project) return null;
  const shownProcessing =
    processing.data && selectedVersion && selectedVersion.id === pollId
      ? processing.data
      : undefined;

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-6">
      <ProjectHeader project={project} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
        <BranchesPanel
          projectId={projectId}
          branches={branches}
          selectedId={selectedBranch?.id ?? null}
          onSelect={(id) => {
            setBranchChoice(id);
            setVersionChoice(undefined);
          }}
          onNewBranch={() => setCreatingBranch(true)}
          onUpload={setUploadTarget}
          onDeleted={(id) => {
            if (id === selectedBranch?.id) {
              setBranchChoice(null);
              setVersionChoice(undefined);
            }
          }}
        />
        <VersionsPanel
          projectName={project.name}
          branch={selectedBranch}
          selectedVersion={selectedVersion}
          onSelectVersion={setVersionChoice}
          onUpload={() => selectedBranch && setUploadTarget(selectedBranch)}
          onNewBranch={() => setCreatingBranch(true)}
          processing={shownProcessing}
        />
      </div>

      {creatingBranch && (
        <CreateBranchModal
          projectId={projectId}
          onClose={() => setCreatingBranch(false)}
          onCreated={(branch) => {
            setCreatingBranch(false);
            setBranchChoice(branch.id);
            setVersionChoice(undefined);
          }}
        />
      )}
      {uploadTarget && (
        <UploadVersionModal
          projectId={projectId}
          branch={uploadTarget}
          onClose={() => setUploadTarget(null)}
          onUploaded={(result) => {
            setUploadTarget(null);
            setUploadedVersionId(result.versionId);
            setBranchChoice(result.branchId);
            setVersionChoice(result.versionId);
            void queryClient.invalidateQueries({ queryKey: queryKeys.branches(projectId) });
            void refreshWorkspace();
          }}
        />
      )}
    </div>
  );
}

function StateBox({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <div
        role="alert"
        className="rounded-lg border border-red-200 bg-red-50 p-6 text-center dark:border-red-900/60 dark:bg-red-950/40"
      >
        <h1 className="text-xl font-semibold text-red-900 dark:text-red-100">{title}</h1>
        <p className="mt-2 text-sm text-red-800 dark:text-red-200">{children}</p>
        <Link to="/dashboard" className={`${primaryButton} mt-4`}>
          Return to Dashboard
        </Link>
      </div>
    </div>
  );
}

function ProjectSkeleton() {
  return (
    <div
      className="mx-auto max-w-6xl animate-pulse space-y-6 px-4 py-8 sm:px-6"
      role="status"
      aria-label="Loading project"
    >
      <div className="h-4 w-32 rounded bg-zinc-200 dark:bg-zinc-800" />
      <div className="h-8 w-2/3 rounded bg-zinc-200 dark:bg-zinc-800" />
      <div className="h-4 w-1/2 rounded bg-zinc-200 dark:bg-zinc-800" />
      <div className="grid gap-6 lg:grid-cols-[1fr_2fr]">
        <div className="h-64 rounded-lg bg-zinc-200 dark:bg-zinc-800" />
        <div className="h-64 rounded-lg bg-zinc-200 dark:bg-zinc-800" />
      </div>
    </div>
  );
}
