import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { usePageMeta } from '../../lib/use-page-meta';

export const LEGAL_LAST_UPDATED = 'November 22, 2026';

export const legalLinkClass =
  'font-medium text-indigo-600 underline underline-offset-2 hover:text-indigo-500 dark:text-indigo-400';

/** The frame every legal page shares: title, date, a short summary and numbered sections. */
export function LegalPage({
  title,
  description,
  summary,
  children,
}: {
  title: string;
  description: string;
  summary: ReactNode;
  children: ReactNode;
}) {
  usePageMeta(`${title} · Takes`, description);
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <header className="mb-10">
        <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase dark:text-indigo-400">
          Legal
        </p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-zinc-900 sm:text-4xl dark:text-white">
          {title}
        </h1>
        <p className="mt-2 text-sm text-zinc-500 dark:text-zinc-400">
          Last updated: {LEGAL_LAST_UPDATED}
        </p>
        <div className="mt-6 rounded-lg border border-zinc-200 bg-zinc-50 p-4 text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300">
          {summary}
        </div>
      </header>
      <div className="space-y-10 leading-7 text-zinc-700 dark:text-zinc-300">{children}</div>
    </div>
  );
}

export function LegalSection({
  number,
  title,
  children,
}: {
  number?: number;
  title: string;
  children: ReactNode;
}) {
  return (
    <section>
      <h2 className="text-xl font-semibold text-zinc-900 dark:text-white">
        {number !== undefined && `${number}. `}
        {title}
      </h2>
      <div className="mt-3 space-y-3 [&_li]:ml-6 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ul]:list-disc [&_ul]:space-y-2">
        {children}
      </div>
    </section>
  );
}

export function ContactLink({ children = 'contact form' }: { children?: ReactNode }) {
  return (
    <Link to="/contact" className={legalLinkClass}>
      {children}
    </Link>
  );
}
