import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { secondaryButton } from '../../ui/button-styles';
import type { MembersTarget } from './members-api';

// The dialog is its own chunk: most visits to a page never open it.
const MembersDialog = lazy(() =>
  import('./members-dialog').then((m) => ({ default: m.MembersDialog })),
);

interface MembersButtonProps {
  target: MembersTarget;
  /** The project's, repository's or collection's name, for the confirmations. */
  targetName: string;
  className?: string;
}

/** 'Members': every member may open the list; what they may change depends on their role. */
export function MembersButton({ target, targetName, className = '' }: MembersButtonProps) {
  // An access request's notification opens the project with `?members=requests`.
  const [params] = useSearchParams();
  const [open, setOpen] = useState(
    () => target.kind === 'project' && params.get('members') === 'requests',
  );
  return (
    <>
      <button
        type="button"
        className={`${secondaryButton} px-3 py-1.5 ${className}`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        Members
      </button>
      {open && (
        <Suspense fallback={null}>
          <MembersDialog target={target} targetName={targetName} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
