import { useQuery } from '@tanstack/react-query';
import { routes, storageUsageLine } from '@takes/contract';
import { useId } from 'react';
import { api } from '../../lib/api';

/** What the person's originals and renditions take: asked again after every upload. */
export const storageUsageKey = ['account', 'storage'] as const;

function useStorageUsage() {
  return useQuery({
    queryKey: storageUsageKey,
    queryFn: ({ signal }) => api.call(routes.admin.getMyStorage, { signal }),
  });
}

/**
 * '12.4 GB of 20 GB used' (or '12.4 GB used' without a quota), on /settings and the upload page.
 * Says nothing while loading or when it cannot be read: it is a note, not the page's purpose.
 */
export function StorageUsageLine({ className }: { className?: string }) {
  const usage = useStorageUsage();
  if (!usage.data) return null;
  return (
    <p className={className ?? 'text-sm text-zinc-600 dark:text-zinc-400'}>
      {storageUsageLine(usage.data)}
    </p>
  );
}

/** /settings 'Storage': what the person's audio takes of their quota. */
export function StorageSection() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold text-zinc-900 dark:text-white">
        Storage
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        Your originals and their renditions, in every project and repository you own.
      </p>
      <StorageUsageLine className="mt-3 text-sm font-medium text-zinc-900 dark:text-white" />
    </section>
  );
}
