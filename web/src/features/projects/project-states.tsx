import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { primaryButton } from '../../ui/button-styles';

/** 'Project not found', 'Error loading project': a box with a way back to the dashboard. */
export function StateBox({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <div
        role="alert"
        className="rounded-lg border border-red-200 bg-red-50 p-6 text-center dark:border-red-900/60 dark:bg-red-950/40"
      >
        <h1 className="text-xl font-semibold text-red-900 dark:text-red-100">{title}</h1>
        <p className="mt-2 text-sm text-red-800 dark:text-red-200">{children}</p>
        <Link to="/dashboard" className={`${primaryButton} mt-4`}>
          Return to Dashboard
        </Link>
      </div>
    </div>
  );
}

/** The project page's loading skeleton. */
export function ProjectSkeleton() {
  return (
    <div
      className="mx-auto max-w-6xl animate-pulse space-y-6 px-4 py-8 sm:px-6"
      role="status"
      aria-label="Loading project"
    >
      <div className="h-4 w-32 rounded bg-zinc-200 dark:bg-zinc-800" />
      <div className="h-8 w-2/3 rounded bg-zinc-200 dark:bg-zinc-800" />
      <div className="h-4 w-1/2 rounded bg-zinc-200 dark:bg-zinc-800" />
      <div className="grid gap-6 lg:grid-cols-[1fr_2fr]">
        <div className="h-64 rounded-lg bg-zinc-200 dark:bg-zinc-800" />
        <div className="h-64 rounded-lg bg-zinc-200 dark:bg-zinc-800" />
      </div>
    </div>
  );
}
