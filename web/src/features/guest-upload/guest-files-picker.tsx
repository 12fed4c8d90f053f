import { useId, useState, type DragEvent } from 'react';
import { ACCEPTED_AUDIO } from '../upload/audio-file';

/** Drag-and-drop or click to pick audio files, several at once. The caller checks each one. */
export function GuestFilesPicker({
  onFiles,
  disabled,
}: {
  onFiles: (files: File[]) => void;
  disabled: boolean;
}) {
  const inputId = useId();
  const [dragging, setDragging] = useState(false);

  function onDrop(event: DragEvent<HTMLLabelElement>) {
    event.preventDefault();
    setDragging(false);
    if (!disabled) onFiles([...event.dataTransfer.files]);
  }

  return (
    <div className="rounded-lg has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-indigo-500">
      <input
        id={inputId}
        type="file"
        multiple
        accept={ACCEPTED_AUDIO}
        disabled={disabled}
        aria-label="Audio files"
        className="sr-only"
        onChange={(event) => {
          onFiles([...(event.target.files ?? [])]);
          // Picking the same files again must fire a change.
          event.target.value = '';
        }}
      />
      <label
        htmlFor={inputId}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`flex cursor-pointer flex-col items-center justify-center rounded-lg border-2 border-dashed px-4 py-8 text-center text-sm ${
          dragging
            ? 'border-indigo-500 bg-indigo-50 dark:bg-indigo-950'
            : 'border-zinc-300 hover:border-indigo-400 dark:border-zinc-700'
        }`}
      >
        <span className="font-medium">Drag and drop audio files here, or click to browse</span>
        <span className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
          Supported formats: MP3, WAV, AIFF, FLAC, AAC/M4A (max 500MB)
        </span>
      </label>
    </div>
  );
}
