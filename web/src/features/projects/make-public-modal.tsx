import { useId, useState } from 'react';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { Modal } from '../../ui/modal';
import { useMakePublic } from './projects-api';
import { PUBLIC_MEANING } from './public-meaning';

/**
 * 'Make public' (owner): says exactly what Public means and asks whether search engines may list
 * the page (off by default: the page is marked noindex).
 */
export function MakePublicModal({
  projectId,
  onClose,
}: {
  projectId: string;
  onClose: () => void;
}) {
  const makePublic = useMakePublic(projectId);
  const [listed, setListed] = useState(false);
  const checkboxId = useId();
  const hintId = useId();

  return (
    <Modal title="Make this project public?" description={PUBLIC_MEANING} onClose={onClose}>
      <div className="space-y-4">
        <div className="flex items-start gap-2">
          <input
            id={checkboxId}
            type="checkbox"
            checked={listed}
            onChange={(event) => setListed(event.target.checked)}
            aria-describedby={hintId}
            className="mt-0.5 size-4 accent-indigo-600"
          />
          <div>
            <label
              htmlFor={checkboxId}
              className="text-sm font-medium text-zinc-800 dark:text-zinc-200"
            >
              List in search engines
            </label>
            <p id={hintId} className="text-xs text-zinc-600 dark:text-zinc-400">
              Unticked, the page asks search engines not to index it. You can change this later.
            </p>
          </div>
        </div>
        {makePublic.isError && (
          <Alert tone="error">
            {errorMessage(makePublic.error, 'Failed to make the project public.')}
          </Alert>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className={primaryButton}
            disabled={makePublic.isPending}
            onClick={() => makePublic.mutate({ listed }, { onSuccess: onClose })}
          >
            {makePublic.isPending ? 'Making public…' : 'Make public'}
          </button>
        </div>
      </div>
    </Modal>
  );
}
