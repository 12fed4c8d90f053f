import { may } from '@takes/contract';
import { lazy, startTransition, Suspense, useEffect, useState } from 'react';
import { Navigate, useLocation, useParams, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { BranchWithVersions } from '@takes/contract';
import { ApiError, errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useAuth } from '../auth/use-auth';
import { BlindTestsSection } from '../blind-tests/owner/blind-tests-section';
import { ActivityPanel } from '../activity/activity-panel';
import { GuestFilesSection } from '../guest-upload/guest-files-section';
import { useMarkTargetRead } from '../notifications/use-mark-target-read';
import { BranchesPanel } from './branches-panel';
import { ProjectHeader } from './project-header';
import {
  isProcessingDone,
  queryKeys,
  useBranches,
  useProcessingStatus,
  useProject,
  useRefreshWorkspace,
} from './projects-api';
import { ProjectSkeleton, StateBox } from './project-states';
import { PublicProjectView } from './public-project-page';
import { VersionsPanel } from './versions-panel';

/**
 * The two dialogs load when first opened: with them came the resumable-upload client and the
 * form schemas (about 40 KB compressed), which a visit that only listens never needs.
 */
const CreateBranchModal = lazy(() =>
  import('./create-branch-modal').then((m) => ({ default: m.CreateBranchModal })),
);
const UploadVersionModal = lazy(() =>
  import('./upload-version-modal').then((m) => ({ default: m.UploadVersionModal })),
);

const POLL_MS = 3000;
const POLL_AFTER_UPLOAD_MS = 2000;

/**
 * False for the page's first render, true once a transition after it has rendered: the heading
 * and the branches (the page's largest paint) mount in one short synchronous render, the
 * versions (player, review, comments) and the activity in a render React splits into slices
 * between which the browser paints and takes input, instead of one long task for the whole page
 * (Lighthouse, a phone: each long task's time over 50 ms counts as blocking).
 */
function useAfterFirstRender(): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => startTransition(() => setAfter(true)), []);
  return after;
}

/** undefined: not chosen yet, so the default rule applies; null: cleared on purpose. */
type Choice = string | null | undefined;

/**
 * /projects/{projectId}. Members see the project's workspace; anyone else sees a Public project's
 * read-only page. A signed-out visitor whose address is not a Public project goes to sign-in,
 * which brings them back here.
 */
export function ProjectPage() {
  const { projectId = '' } = useParams();
  const auth = useAuth();
  const location = useLocation();

  if (auth.status === 'loading') return <ProjectSkeleton />;
  if (auth.status === 'signed-out') {
    return (
      <PublicProjectView
        projectId={projectId}
        notFound={<Navigate to="/login" replace state={{ from: location }} />}
      />
    );
  }
  return <MemberProjectPage projectId={projectId} />;
}

function MemberProjectPage({ projectId }: { projectId: string }) {
  const project = useProject(projectId);
  const branches = useBranches(projectId);
  useDocumentTitle(project.data ? `${project.data.name} · Takes` : 'Project · Takes');

  if (project.isPending || (project.isSuccess && branches.isPending)) return <ProjectSkeleton />;
  if (project.isError) {
    const error = project.error;
    const notFound = (
      <StateBox title="Project not found">
        The project you&apos;re looking for doesn&apos;t exist or you don&apos;t have permission to
        view it.
      </StateBox>
    );
    // Not a member: it may still be a Public project, readable by anyone.
    if (error instanceof ApiError && error.status === 404) {
      return <PublicProjectView projectId={projectId} notFound={notFound} />;
    }
    if (error instanceof ApiError && [400, 403].includes(error.status)) return notFound;
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
  // Reading the project marks its notifications read (membership changes link here).
  useMarkTargetRead(`/projects/${projectId}`, project !== undefined);
  const queryClient = useQueryClient();
  const refreshWorkspace = useRefreshWorkspace();
  // `?branch=` (a guest's file notification links to its branch) picks the first branch shown.
  const [search] = useSearchParams();
  const [branchChoice, setBranchChoice] = useState<Choice>(search.get('branch') ?? undefined);
  const [versionChoice, setVersionChoice] = useState<Choice>(undefined);
  const [creatingBranch, setCreatingBranch] = useState(false);
  const [uploadTarget, setUploadTarget] = useState<BranchWithVersions | null>(null);
  const [uploadedVersionId, setUploadedVersionId] = useState<string | null>(null);
  const restShown = useAfterFirstRender();

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
          role={project.role}
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
        {restShown ? (
          <VersionsPanel
            projectName={project.name}
            role={project.role}
            branch={selectedBranch}
            selectedVersion={selectedVersion}
            onSelectVersion={setVersionChoice}
            onUpload={() => selectedBranch && setUploadTarget(selectedBranch)}
            onNewBranch={() => setCreatingBranch(true)}
            processing={shownProcessing}
          />
        ) : (
          // The versions' place, kept until they render (nothing below moves into it).
          <div className="h-64 rounded-lg bg-zinc-100 dark:bg-zinc-900" aria-hidden="true" />
        )}
      </div>
      {restShown && selectedBranch ? (
        <GuestFilesSection
          target={{
            kind: 'project',
            projectId,
            name: project.name,
            branch: { id: selectedBranch.id, name: selectedBranch.name },
          }}
          role={project.role}
        />
      ) : null}
      {restShown && may(project.role, 'share') ? <BlindTestsSection projectId={projectId} /> : null}
      {restShown && <ActivityPanel source={{ projectId }} />}

      <Suspense fallback={null}>
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
              setUploadedVersionId(result.version_id);
              setBranchChoice(result.branch_id);
              setVersionChoice(result.version_id);
              void queryClient.invalidateQueries({ queryKey: queryKeys.branches(projectId) });
              void refreshWorkspace();
            }}
          />
        )}
      </Suspense>
    </div>
  );
}
