import { useState, type FormEvent } from 'react';
import { PROJECT_MESSAGES } from '@takes/contract';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { Modal } from '../../ui/modal';
import { audioFileProblem, isAudioFile } from '../upload/audio-file';
import { FileDropZone } from '../upload/file-drop-zone';
import { ProgressBar, uploadDetail } from '../upload/processing-stages';
import { TagsInput } from '../upload/tags-input';
import { uploadAudio, type UploadProgress, type UploadResult } from '../upload/upload-client';
import { TextAreaField } from './create-project-modal';

interface UploadVersionModalProps {
  projectId: string;
  branch: { id: string; name: string };
  onClose: () => void;
  onUploaded: (result: UploadResult) => void;
}

/** Upload (project page): idle, uploading 0–100; success hands the result back, failure stays. */
export function UploadVersionModal({
  projectId,
  branch,
  onClose,
  onUploaded,
}: UploadVersionModalProps) {
  const [file, setFile] = useState<File | null>(null);
  const [message, setMessage] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [error, setError] = useState<string | null>(null);

  function pickFile(picked: File) {
    if (!isAudioFile(picked)) {
      // A file that is not audio is refused before anything is sent.
      console.warn(`Refused non-audio file ${picked.name}`);
      setError(PROJECT_MESSAGES.invalidType);
      return;
    }
    const problem = audioFileProblem(picked);
    setError(problem);
    if (!problem) setFile(picked);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!file) return setError(PROJECT_MESSAGES.fileRequired);
    if (!message.trim()) return setError(PROJECT_MESSAGES.messageRequired);
    setError(null);
    setUploading(true);
    setProgress(null);
    try {
      const result = await uploadAudio(
        file,
        { kind: 'version', projectId, branchId: branch.id, commitMessage: message.trim(), tags },
        setProgress,
      );
      onUploaded(result);
    } catch (failure) {
      console.error('Project page upload failed', failure);
      setError(failure instanceof Error ? failure.message : 'Failed to upload file');
      setUploading(false);
    }
  }

  return (
    <Modal
      title="Upload New Version"
      description={
        <>
          Branch: <strong>{branch.name}</strong>
        </>
      }
      onClose={() => {
        if (!uploading) onClose();
      }}
    >
      <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
        <FileDropZone file={file} onFile={pickFile} disabled={uploading} />
        <TextAreaField label="Version Message" value={message} onValueChange={setMessage} />
        <TagsInput tags={tags} onChange={setTags} disabled={uploading} />
        {uploading && (
          <ProgressBar
            percent={progress?.percent ?? 0}
            label="Uploading"
            detail={progress ? uploadDetail(progress) : undefined}
          />
        )}
        {error && <Alert tone="error">{error}</Alert>}
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={onClose} disabled={uploading}>
            Cancel
          </button>
          <button type="submit" className={primaryButton} disabled={uploading || !file}>
            {uploading ? 'Uploading...' : 'Upload Version'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
