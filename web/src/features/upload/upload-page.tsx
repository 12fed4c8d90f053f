import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { PROJECT_MESSAGES, may } from '@takes/contract';
import { useDocumentTitle } from '../../lib/use-document-title';
import { StorageUsageLine, storageUsageKey } from '../settings/storage-usage';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { Tabs } from '../../ui/tabs';
import { TextField } from '../../ui/text-field';
import { CreateBranchModal } from '../projects/create-branch-modal';
import { PrivacyRadios, TextAreaField } from '../projects/create-project-modal';
import {
  isProcessingDone,
  useBranches,
  useProcessingStatus,
  useProjects,
  useRefreshWorkspace,
  useSharedProjects,
} from '../projects/projects-api';
import { audioFileProblem, baseName } from './audio-file';
import { FileDropZone } from './file-drop-zone';
import { ProcessingStages, ProgressBar, uploadDetail } from './processing-stages';
import { TagsInput } from './tags-input';
import {
  uploadAudio,
  type UploadFields,
  type UploadProgress,
  type UploadResult,
} from './upload-client';

type Mode = 'track' | 'version';
const TABS = [
  { id: 'track', label: 'New Track' },
  { id: 'version', label: 'New Version' },
] as const;

const POLL_MS = 3000;
const SHOW_DONE_MS = 800;

export function UploadPage() {
  useDocumentTitle('Upload · Takes');
  const [mode, setMode] = useState<Mode>('track');
  // A fresh form per tab: switching resets everything.
  const [formKey, setFormKey] = useState(0);

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Upload</h1>
      <StorageUsageLine className="mt-2 text-sm text-zinc-600 dark:text-zinc-400" />
      <div className="mt-6">
        <Tabs
          label="Upload type"
          items={TABS}
          selected={mode}
          onSelect={(next) => {
            if (next === mode) return;
            setMode(next);
            setFormKey((key) => key + 1);
          }}
        >
          <UploadForm key={formKey} mode={mode} />
        </Tabs>
      </div>
    </div>
  );
}

function UploadForm({ mode }: { mode: Mode }) {
  const navigate = useNavigate();
  const refreshWorkspace = useRefreshWorkspace();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [tags, setTags] = useState<string[]>([]);
  const [projectName, setProjectName] = useState('');
  const [description, setDescription] = useState('');
  const [isPrivate, setIsPrivate] = useState(true);
  const [projectId, setProjectId] = useState('');
  const [branchId, setBranchId] = useState('');
  const [message, setMessage] = useState('');
  const [creatingBranch, setCreatingBranch] = useState(false);

  const [uploading, setUploading] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<UploadResult | null>(null);
  const processing = useProcessingStatus(result?.version_id ?? null, POLL_MS);
  const uploadAbort = useRef<AbortController | null>(null);
  // Leaving the page (Cancel, a tab switch) stops an upload still in flight.
  useEffect(() => () => uploadAbort.current?.abort(), []);

  const finished = isProcessingDone(processing.data) && processing.data?.status !== 'failed';
  useEffect(() => {
    if (!result || !finished) return;
    // A moment to see every stage ticked before the project page replaces this one.
    const timer = setTimeout(() => void navigate(`/projects/${result.project_id}`), SHOW_DONE_MS);
    return () => clearTimeout(timer);
  }, [result, finished, navigate]);

  function pickFile(picked: File) {
    const problem = audioFileProblem(picked);
    setFileError(problem);
    if (problem) {
      setFile(null);
      return;
    }
    setFile(picked);
    if (mode === 'track' && !projectName.trim()) setProjectName(baseName(picked.name));
  }

  function validationError(): string | null {
    if (!file) return PROJECT_MESSAGES.fileRequired;
    if (mode === 'track') {
      if (!projectName.trim()) return PROJECT_MESSAGES.projectNameRequired;
      return null;
    }
    if (!projectId) return PROJECT_MESSAGES.projectRequired;
    if (!branchId) return PROJECT_MESSAGES.branchRequired;
    if (!message.trim()) return PROJECT_MESSAGES.messageRequired;
    return null;
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = validationError();
    if (problem || !file) {
      setError(problem);
      return;
    }
    const fields: UploadFields =
      mode === 'track'
        ? {
            kind: 'track',
            projectName: projectName.trim(),
            projectDescription: description.trim(),
            isPrivate,
            tags,
          }
        : { kind: 'version', projectId, branchId, commitMessage: message.trim(), tags };
    setError(null);
    setUploading(true);
    setProgress(null);
    try {
      uploadAbort.current = new AbortController();
      const uploaded = await uploadAudio(file, fields, setProgress, uploadAbort.current.signal);
      setResult(uploaded);
      void refreshWorkspace();
      void queryClient.invalidateQueries({ queryKey: storageUsageKey });
    } catch (failure) {
      if (failure instanceof DOMException && failure.name === 'AbortError') return;
      setError(failure instanceof Error ? failure.message : 'Unknown upload error');
      setUploading(false);
    }
  }

  const busy = uploading;
  const canSubmit = !busy && file !== null && (mode === 'track' || (projectId && branchId));

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-6">
      <FileDropZone file={file} onFile={pickFile} disabled={busy} />
      {fileError && <Alert tone="error">{fileError}</Alert>}

      {mode === 'track' ? (
        <>
          <TextField
            label="Project Name"
            value={projectName}
            onValueChange={setProjectName}
            disabled={busy}
            required
            autoComplete="off"
          />
          <TextAreaField
            label="Description (optional)"
            value={description}
            onValueChange={setDescription}
          />
          <PrivacyRadios isPrivate={isPrivate} onChange={setIsPrivate} />
        </>
      ) : (
        <VersionTarget
          projectId={projectId}
          branchId={branchId}
          disabled={busy}
          onProject={(id) => {
            setProjectId(id);
            setBranchId('');
          }}
          onBranch={setBranchId}
          onNewBranch={() => setCreatingBranch(true)}
          message={message}
          onMessage={setMessage}
        />
      )}

      <TagsInput tags={tags} onChange={setTags} disabled={busy} />

      {uploading && (
        <ProgressBar
          percent={progress?.percent ?? 0}
          label="Uploading"
          detail={progress ? uploadDetail(progress) : undefined}
        />
      )}
      {result && <ProcessingStages status={processing.data} />}
      {result && processing.data?.status === 'failed' && (
        <Link to={`/projects/${result.project_id}`} className={secondaryButton}>
          Go to project
        </Link>
      )}
      {error && <Alert tone="error">{error}</Alert>}

      <div className="flex flex-wrap justify-end gap-2">
        <Link to="/dashboard" className={secondaryButton}>
          Cancel
        </Link>
        <button type="submit" className={primaryButton} disabled={!canSubmit}>
          {busy ? 'Uploading...' : 'Upload'}
        </button>
      </div>

      {creatingBranch && projectId && (
        <CreateBranchModal
          projectId={projectId}
          title="Create New Branch"
          onClose={() => setCreatingBranch(false)}
          onCreated={(branch) => {
            setBranchId(branch.id);
            setCreatingBranch(false);
          }}
        />
      )}
    </form>
  );
}

const NEW_BRANCH = '__new__';
const selectClass =
  'mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm font-normal text-zinc-900 shadow-sm focus:outline-2 focus:-outline-offset-1 focus:outline-indigo-500 disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-900 dark:text-white';

interface VersionTargetProps {
  projectId: string;
  branchId: string;
  disabled: boolean;
  onProject: (id: string) => void;
  onBranch: (id: string) => void;
  onNewBranch: () => void;
  message: string;
  onMessage: (message: string) => void;
}

function VersionTarget(props: VersionTargetProps) {
  const projects = useProjects();
  const shared = useSharedProjects();
  const branches = useBranches(props.projectId);
  // Projects shared with you where your role may upload (Editor), after your own.
  const sharedTargets = (shared.data ?? []).filter((project) => may(project.role, 'upload'));
  return (
    <>
      <label className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        Select Project
        <select
          className={selectClass}
          value={props.projectId}
          disabled={props.disabled}
          onChange={(event) => props.onProject(event.target.value)}
        >
          <option value="">Select a project</option>
          {projects.data?.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
          {sharedTargets.length > 0 && (
            <optgroup label="Shared with you">
              {sharedTargets.map((project) => (
                <option key={project.id} value={project.id}>
                  {project.name}
                </option>
              ))}
            </optgroup>
          )}
        </select>
      </label>
      <label className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        Select Branch
        <select
          className={selectClass}
          value={props.branchId}
          disabled={props.disabled || !props.projectId}
          onChange={(event) => {
            if (event.target.value === NEW_BRANCH) props.onNewBranch();
            else props.onBranch(event.target.value);
          }}
        >
          <option value="">Select a branch</option>
          {branches.data?.map((branch) => (
            <option key={branch.id} value={branch.id}>
              {branch.name}
            </option>
          ))}
          <option value={NEW_BRANCH}>+ New Branch</option>
        </select>
      </label>
      <TextAreaField
        label="Version Message"
        value={props.message}
        onValueChange={props.onMessage}
      />
    </>
  );
}
