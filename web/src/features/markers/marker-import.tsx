import { MARKER_MESSAGES, MarkerFileError, may, readMarkerFile, type Role } from '@takes/contract';
import { useEffect, useRef, useState } from 'react';
import { pluralize } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { secondaryButton } from '../../ui/button-styles';
import { ImportConfirm } from './import-confirm';
import { planImport, type ImportPlan } from './import-plan';

/** A marker file is small text or a small MIDI file; anything bigger is not one (a WAV, say). */
const MARKER_FILE_MAX_BYTES = 4 * 1024 * 1024;

/** What the file chooser offers; a dropped file is read by its content whatever its name. */
const MARKER_FILE_ACCEPT = '.txt,.csv,.mid,.midi,text/plain,text/csv,audio/midi';

const DROP_OUTLINE = '2px dashed rgb(99 102 241)';

interface MarkerImportProps {
  versionId: string;
  /** The caller's role: Commenters and up import; a Viewer sees nothing of it. */
  role: Role;
  /** The version's length in seconds (null: not known yet), to leave out markers past its end. */
  duration: number | null;
}

/**
 * The way back from a DAW: an Audacity label track, a REAPER marker CSV or a MIDI marker file,
 * dropped on the comment panel (this element's parent) or chosen with 'Import markers…', becomes
 * comments by the signed-in person after a confirm step listing them.
 */
export function MarkerImport({ role, ...props }: MarkerImportProps) {
  if (!may(role, 'comment')) return null;
  return <MarkerImportControls {...props} />;
}

function MarkerImportControls({ versionId, duration }: Omit<MarkerImportProps, 'role'>) {
  const anchor = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [chosen, setChosen] = useState<{ fileName: string; plan: ImportPlan } | null>(null);
  const durationRef = useRef(duration);
  useEffect(() => {
    durationRef.current = duration;
  });

  async function readFile(file: File) {
    setError(null);
    setStatus('');
    if (file.size > MARKER_FILE_MAX_BYTES) {
      setError(MARKER_MESSAGES.unreadable);
      return;
    }
    try {
      const { markers } = readMarkerFile(new Uint8Array(await file.arrayBuffer()));
      const plan = planImport(markers, durationRef.current);
      if (plan.post.length === 0)
        setError('Every marker in this file starts after the version ends.');
      else setChosen({ fileName: file.name, plan });
    } catch (failure) {
      setError(failure instanceof MarkerFileError ? failure.message : MARKER_MESSAGES.unreadable);
    }
  }
  const readFileRef = useRef(readFile);
  useEffect(() => {
    readFileRef.current = readFile;
  });

  // The whole panel takes a dropped file: listen on the element this one is placed in.
  useEffect(() => {
    const panel = anchor.current?.parentElement;
    if (!panel) return;
    let depth = 0;
    const carriesFiles = (event: DragEvent) =>
      Array.from(event.dataTransfer?.types ?? []).includes('Files');
    const onEnter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth += 1;
      setDragging(true);
    };
    const onOver = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const onLeave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onDrop = (event: DragEvent) => {
      const file = event.dataTransfer?.files[0];
      if (!file) return;
      event.preventDefault();
      depth = 0;
      setDragging(false);
      void readFileRef.current(file);
    };
    panel.addEventListener('dragenter', onEnter);
    panel.addEventListener('dragover', onOver);
    panel.addEventListener('dragleave', onLeave);
    panel.addEventListener('drop', onDrop);
    return () => {
      panel.removeEventListener('dragenter', onEnter);
      panel.removeEventListener('dragover', onOver);
      panel.removeEventListener('dragleave', onLeave);
      panel.removeEventListener('drop', onDrop);
    };
  }, []);

  // While a file is dragged over the panel, the panel shows where it can be dropped.
  useEffect(() => {
    const panel = anchor.current?.parentElement;
    if (!panel || !dragging) return;
    panel.style.outline = DROP_OUTLINE;
    panel.style.outlineOffset = '6px';
    return () => {
      panel.style.outline = '';
      panel.style.outlineOffset = '';
    };
  }, [dragging]);

  return (
    <div ref={anchor} data-testid="marker-import">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <button
          type="button"
          className={secondaryButton}
          aria-haspopup="dialog"
          onClick={() => input.current?.click()}
        >
          Import markers…
        </button>
        <p className="min-w-0 text-xs text-zinc-600 dark:text-zinc-300">
          {dragging
            ? 'Drop the file to add its markers as comments.'
            : 'Or drop a marker file (Audacity labels, REAPER CSV, MIDI) on the comments.'}
        </p>
        <input
          ref={input}
          type="file"
          accept={MARKER_FILE_ACCEPT}
          hidden
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void readFile(file);
          }}
        />
      </div>
      {error ? (
        <Alert tone="error" className="mt-2">
          {error}
        </Alert>
      ) : null}
      <p
        role="status"
        className={`text-sm text-emerald-700 dark:text-emerald-300 ${status ? 'mt-2' : ''}`}
      >
        {status}
      </p>
      {chosen ? (
        <ImportConfirm
          versionId={versionId}
          fileName={chosen.fileName}
          plan={chosen.plan}
          onClose={() => setChosen(null)}
          onPosted={(count) => {
            setChosen(null);
            setStatus(`Posted ${pluralize(count, 'comment', 'comments')}.`);
          }}
        />
      ) : null}
    </div>
  );
}
