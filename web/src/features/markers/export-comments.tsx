import {
  MARKER_FORMAT_LABELS,
  MARKER_FORMATS,
  MARKER_WORDS,
  type MarkerFormat,
} from '@takes/contract';
import { useId, useState } from 'react';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { Modal } from '../../ui/modal';
import { markersUrl, type MarkerSource } from './markers-api';

const selectClass =
  'mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 focus:outline-2 focus:-outline-offset-1 focus:outline-indigo-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-white';

interface ExportCommentsProps {
  /** The version (for its members) or the share link (for its listeners) whose comments to export. */
  source: MarkerSource;
  /** The WAV holds the audio: offered only to those who may download it. */
  allowWav?: boolean;
}

/**
 * 'Export comments…': a dialog choosing the marker file (the format, and whether resolved comments
 * go in too) with a 'Download' link to it.
 */
export function ExportComments({ source, allowWav = true }: ExportCommentsProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={secondaryButton}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {MARKER_WORDS.exportComments}
      </button>
      {open ? (
        <ExportCommentsDialog source={source} allowWav={allowWav} onClose={() => setOpen(false)} />
      ) : null}
    </>
  );
}

function ExportCommentsDialog({
  source,
  allowWav,
  onClose,
}: {
  source: MarkerSource;
  allowWav: boolean;
  onClose: () => void;
}) {
  const formatId = useId();
  const formats = MARKER_FORMATS.filter((format) => allowWav || format !== 'wav');
  const [format, setFormat] = useState<MarkerFormat>('midi');
  const [includeResolved, setIncludeResolved] = useState(false);
  return (
    <Modal
      title="Export comments"
      description="Each comment becomes a marker at its time (a region where it has an end), in a file your DAW opens."
      onClose={onClose}
    >
      <div className="space-y-4">
        <div>
          <label htmlFor={formatId} className="block text-sm font-medium">
            {MARKER_WORDS.format}
          </label>
          <select
            id={formatId}
            value={format}
            onChange={(event) => setFormat(event.target.value as MarkerFormat)}
            className={selectClass}
          >
            {formats.map((option) => (
              <option key={option} value={option}>
                {MARKER_FORMAT_LABELS[option]}
              </option>
            ))}
          </select>
        </div>
        <label className="flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
          <input
            type="checkbox"
            checked={includeResolved}
            onChange={(event) => setIncludeResolved(event.target.checked)}
            className="size-4 shrink-0 accent-indigo-600"
          />
          {MARKER_WORDS.includeResolved}
        </label>
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={onClose}>
            Close
          </button>
          <a href={markersUrl(source, format, includeResolved)} download className={primaryButton}>
            Download
          </a>
        </div>
      </div>
    </Modal>
  );
}
