import { useEffect, useId, useRef, useState, type ReactNode, type Ref } from 'react';
import { secondaryButton } from '../../ui/button-styles';
import { inputClass } from '../../ui/text-field';

/** A copy button reads 'Copied!' this long. */
export const COPIED_MS = 2000;

/**
 * What was copied last (a link's id, or `true` where there is one link), forgotten after
 * COPIED_MS so its button reads 'Copy' again.
 */
export function useCopied<T>(): [T | null, (copied: T | null) => void] {
  const [copied, setCopied] = useState<T | null>(null);
  useEffect(() => {
    if (copied === null) return;
    const timer = setTimeout(() => setCopied(null), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return [copied, setCopied];
}

export interface CopyLinkFieldProps {
  /** Names the address box: 'Share URL', or the recipient a link is for. */
  label: string;
  url: string;
  copied: boolean;
  onCopied: () => void;
  /** Heard after 'Copy' where several links are listed ('link for Ana'). */
  copyLabelSuffix?: string;
  buttonRef?: Ref<HTMLButtonElement>;
  /** Notes under the address (a password reminder, whether it was emailed). */
  children?: ReactNode;
}

/**
 * A created link's address, read-only and selected on focus, with a 'Copy' button that reads
 * 'Copied!' while `copied`. Without clipboard permission the address is selected instead, so it
 * can be copied by hand.
 */
export function CopyLinkField({
  label,
  url,
  copied,
  onCopied,
  copyLabelSuffix,
  buttonRef,
  children,
}: CopyLinkFieldProps) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      onCopied();
    } catch (error) {
      console.error('Failed to copy share link:', error);
      inputRef.current?.select();
    }
  }

  return (
    <div>
      <label
        htmlFor={inputId}
        className="block text-sm font-medium break-words text-zinc-800 dark:text-zinc-200"
      >
        {label}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          ref={inputRef}
          id={inputId}
          type="text"
          readOnly
          value={url}
          onFocus={(event) => event.target.select()}
          className={`${inputClass} border-zinc-300 font-mono dark:border-zinc-700`}
        />
        <button
          ref={buttonRef}
          type="button"
          className={secondaryButton}
          onClick={() => void copy()}
        >
          {copied ? 'Copied!' : 'Copy'}
          {copyLabelSuffix && <span className="sr-only"> {copyLabelSuffix}</span>}
        </button>
      </div>
      {children}
    </div>
  );
}

/** Tells a screen reader that a link was copied; one per dialog, however many links it lists. */
export function CopiedStatus({ copied }: { copied: boolean }) {
  return (
    <p role="status" className="sr-only">
      {copied ? 'Link copied to the clipboard' : ''}
    </p>
  );
}
