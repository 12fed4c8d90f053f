interface SpinnerProps {
  /** Read by screen readers; the spinner itself is decorative. */
  label: string;
  className?: string;
}

export function Spinner({ label, className = 'size-5' }: SpinnerProps) {
  return (
    <span role="status" className="inline-flex items-center">
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className={`animate-spin text-indigo-600 dark:text-indigo-400 ${className}`}
        fill="none"
      >
        <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity={0.25} strokeWidth={3} />
        <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth={3} />
      </svg>
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** A centred spinner standing in for a whole page while it loads. */
export function PageSpinner({ label }: { label: string }) {
  return (
    <div className="flex justify-center px-4 py-24">
      <Spinner label={label} className="size-8" />
    </div>
  );
}
