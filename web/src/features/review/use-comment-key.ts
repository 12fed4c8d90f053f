import { useEffect } from 'react';

/** True while typing: the keys belong to the field then. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

/** `C` starts a comment at the current time; `Esc` cancels (not while typing, no modifiers). */
export function useCommentKey({
  enabled,
  onComment,
  onCancel,
}: {
  enabled: boolean;
  onComment: () => void;
  onCancel: () => void;
}) {
  useEffect(() => {
    if (!enabled) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === 'Escape') {
        onCancel();
        return;
      }
      if (isTyping(event.target)) return;
      if (event.key === 'c' || event.key === 'C') {
        event.preventDefault();
        onComment();
      }
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled, onComment, onCancel]);
}
