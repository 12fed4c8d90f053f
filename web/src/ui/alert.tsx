import type { ReactNode } from 'react';

type AlertTone = 'error' | 'success' | 'info';

const toneClasses: Record<AlertTone, string> = {
  error:
    'border-red-200 bg-red-50 text-red-800 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-200',
  success:
    'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900/60 dark:bg-emerald-950/40 dark:text-emerald-200',
  info: 'border-indigo-200 bg-indigo-50 text-indigo-800 dark:border-indigo-900/60 dark:bg-indigo-950/40 dark:text-indigo-200',
};

interface AlertProps {
  tone: AlertTone;
  children: ReactNode;
  className?: string;
}

const toneRoles: Record<AlertTone, 'alert' | 'status' | undefined> = {
  error: 'alert',
  success: 'status',
  // Info boxes are static explanations, not news to announce.
  info: undefined,
};

/** A message box. Errors interrupt screen readers; success is announced politely. */
export function Alert({ tone, children, className = '' }: AlertProps) {
  return (
    <div
      role={toneRoles[tone]}
      className={`rounded-md border px-3 py-2 text-sm ${toneClasses[tone]} ${className}`}
    >
      {children}
    </div>
  );
}
