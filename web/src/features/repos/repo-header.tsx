import { useRef, useState, type ChangeEvent } from 'react';
import { MAX_COVER_BYTES, REPO_MESSAGES, may, type Bounce, type Repository } from '@takes/contract';
import { errorMessage } from '../../lib/api';
import { formatRelativeTime, pluralize } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { LOGO_URL } from '../bounces/cover';
import { MembersButton } from '../members/members-button';
import { RoleBadge } from '../members/role-badge';
import { publishBounce, PublishError } from './publish-bounce';
import { useRefreshRepos, useUploadCover } from './repos-api';

const COVER_TYPES = 'image/png,image/jpeg,image/webp';
const AUDIO_TYPES = 'audio/*,.wav,.aif,.aiff,.aifc,.flac,.mp3,.m4a,.aac,.ogg';

interface RepoHeaderProps {
  repo: Repository;
  /** Where 'Publish bounce' publishes: the selected branch, or main for a new repository. */
  publishBranch: string;
  onPublished: (bounce: Bounce) => void;
}

type PublishState =
  { phase: 'idle' } | { phase: 'uploading'; percent: number } | { phase: 'completing' };

export function RepoHeader({ repo, publishBranch, onPublished }: RepoHeaderProps) {
  return (
    <header className="flex flex-col gap-6 sm:flex-row sm:items-start">
      <RepoCover repo={repo} />
      <div className="min-w-0 flex-1 space-y-3">
        <div>
          <p className="text-sm text-zinc-600 dark:text-zinc-300">Repository</p>
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-3xl font-bold tracking-tight break-words text-zinc-900 dark:text-white">
              {repo.name}
            </h1>
            <RoleBadge role={repo.role} />
          </div>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
            Last activity {formatRelativeTime(repo.last_activity_at)} ·{' '}
            {pluralize(repo.patch_count, 'patch', 'patches')} ·{' '}
            {pluralize(repo.bounce_count, 'bounce', 'bounces')}
          </p>
        </div>
        <RepoActions repo={repo} publishBranch={publishBranch} onPublished={onPublished} />
      </div>
    </header>
  );
}

function RepoCover({ repo }: { repo: Repository }) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const src = repo.cover_url && repo.cover_url !== failedUrl ? repo.cover_url : LOGO_URL;
  return (
    <img
      src={src}
      alt={repo.cover_url ? `Cover of ${repo.name}` : ''}
      data-testid="repo-cover"
      onError={() => setFailedUrl(repo.cover_url)}
      className="size-32 shrink-0 rounded-lg border border-zinc-200 bg-zinc-100 object-cover dark:border-zinc-800 dark:bg-zinc-900"
    />
  );
}

function RepoActions({ repo, publishBranch, onPublished }: RepoHeaderProps) {
  const coverInput = useRef<HTMLInputElement>(null);
  const audioInput = useRef<HTMLInputElement>(null);
  const uploadCover = useUploadCover(repo.id);
  const refresh = useRefreshRepos();
  const [coverError, setCoverError] = useState<string | null>(null);
  const [publish, setPublish] = useState<PublishState>({ phase: 'idle' });
  const [publishError, setPublishError] = useState<string | null>(null);

  function onCoverChosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setCoverError(null);
    if (file.size > MAX_COVER_BYTES) {
      setCoverError(REPO_MESSAGES.coverTooLarge);
      return;
    }
    uploadCover.mutate(file, {
      onError: (error) => setCoverError(errorMessage(error, '')),
    });
  }

  async function onAudioChosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setPublishError(null);
    setPublish({ phase: 'uploading', percent: 0 });
    try {
      const bounce = await publishBounce({
        repoId: repo.id,
        branch: publishBranch,
        file,
        onProgress: (percent) =>
          setPublish((state) => (state.phase === 'uploading' ? { ...state, percent } : state)),
      });
      setPublish({ phase: 'completing' });
      await refresh();
      onPublished(bounce);
    } catch (error) {
      setPublishError(error instanceof PublishError ? error.message : 'publish_failed');
    } finally {
      setPublish({ phase: 'idle' });
    }
  }

  const publishing = publish.phase !== 'idle';
  const compactButton = 'px-3 py-1.5';
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <MembersButton target={{ kind: 'repository', id: repo.id }} targetName={repo.name} />
        {may(repo.role, 'editCover') && (
          <>
            <button
              type="button"
              className={`${secondaryButton} ${compactButton}`}
              disabled={uploadCover.isPending}
              onClick={() => coverInput.current?.click()}
            >
              {uploadCover.isPending ? 'Uploading cover…' : 'Change cover'}
            </button>
            <input
              ref={coverInput}
              type="file"
              accept={COVER_TYPES}
              aria-label="Cover image"
              className="hidden"
              onChange={onCoverChosen}
            />
          </>
        )}
        {may(repo.role, 'publish') && (
          <>
            <button
              type="button"
              className={`${primaryButton} ${compactButton}`}
              disabled={publishing}
              onClick={() => audioInput.current?.click()}
            >
              Publish bounce
            </button>
            <input
              ref={audioInput}
              type="file"
              accept={AUDIO_TYPES}
              aria-label="Bounce audio file"
              className="hidden"
              onChange={(event) => void onAudioChosen(event)}
            />
          </>
        )}
        <button
          type="button"
          className={`${secondaryButton} ${compactButton}`}
          title="Open in desktop and pull"
          onClick={() => window.location.assign(repo.pull_url)}
        >
          Pull
        </button>
      </div>

      {publish.phase === 'uploading' && (
        <div className="max-w-sm space-y-1">
          <p className="text-sm text-zinc-600 dark:text-zinc-300">
            Uploading to {publishBranch}… {publish.percent}%
          </p>
          <progress
            aria-label="Upload progress"
            max={100}
            value={publish.percent}
            className="h-2 w-full accent-indigo-600"
          />
        </div>
      )}
      {publish.phase === 'completing' && (
        <p role="status" className="text-sm text-zinc-600 dark:text-zinc-300">
          Finishing publish…
        </p>
      )}
      {publishError !== null && (
        <Alert tone="error">
          <p className="font-semibold">Publish failed</p>
          <p>{publishError}</p>
        </Alert>
      )}
      {coverError !== null && (
        <Alert tone="error">
          Cover upload failed
          {coverError ? `: ${coverError}` : ''}
        </Alert>
      )}
    </div>
  );
}
