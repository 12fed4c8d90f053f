import { useId, useRef, useState, type DragEvent } from 'react';
import { formatFileSize } from '../../lib/format';
import { ACCEPTED_AUDIO } from './audio-file';

interface FileDropZoneProps {
  file: File | null;
  onFile: (file: File) => void;
  disabled?: boolean;
  label?: string;
}

/** Drag-and-drop or click to pick an audio file. The caller checks type and size. */
export function FileDropZone({
  file,
  onFile,
  disabled = false,
  label = 'Audio file',
}: FileDropZoneProps) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  function onDrop(event: DragEvent<HTMLLabelElement>) {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    const dropped = event.dataTransfer.files[0];
    if (dropped) onFile(dropped);
  }

  return (
    <div className="rounded-lg has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-indigo-500">
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        accept={ACCEPTED_AUDIO}
        disabled={disabled}
        aria-label={label}
        className="sr-only"
        onChange={(event) => {
          const picked = event.target.files?.[0];
          if (picked) onFile(picked);
          // Picking the same file again must fire a change.
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
        {file ? (
          <>
            <span className="font-medium break-all">{file.name}</span>
            <span className="mt-1 text-zinc-600 dark:text-zinc-400">
              {formatFileSize(file.size)}
            </span>
          </>
        ) : (
          <span className="font-medium">Drag and drop an audio file here, or click to browse</span>
        )}
        <span className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
          Supported formats: MP3, WAV, AIFF, FLAC, AAC/M4A (max 500MB)
        </span>
      </label>
    </div>
  );
}
