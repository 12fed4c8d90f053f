import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes, type DataExport, type LatestDataExport } from '@takes/contract';
import { useId } from 'react';
import { api, errorMessage } from '../../lib/api';
import { formatFileSize } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { Spinner } from '../../ui/spinner';
import { ProgressBar } from '../upload/processing-stages';

const exportsApi = routes.dataExports;
const latestKey = ['data-exports', 'latest'] as const;
/** While an export is being made its status is asked for every second. */
const POLL_MS = 1000;

const inFlight = (e: DataExport | null | undefined) =>
  e?.state === 'queued' || e?.state === 'running';

/** "Nov 24, 2026, 3:04 PM": the person's own time zone. */
function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

/**
 * /settings 'Export my data': a zip of every project and repository the person owns (originals,
 * comments, share links, commits, bounces, with a manifest), made in the background and
 * downloadable for 24 hours. The practical side of "your music stays yours".
 */
export function ExportDataSection() {
  const headingId = useId();
  const queryClient = useQueryClient();
  const latest = useQuery({
    queryKey: latestKey,
    queryFn: ({ signal }) => api.call(exportsApi.getLatestDataExport, { signal }),
    refetchInterval: (query) => (inFlight(query.state.data?.export) ? POLL_MS : false),
  });
  const start = useMutation({
    mutationFn: () => api.call(exportsApi.startDataExport, {}),
    onSuccess: (started) =>
      queryClient.setQueryData<LatestDataExport>(latestKey, { export: started }),
  });
  const current = latest.data?.export ?? null;

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold text-zinc-900 dark:text-white">
        Export my data
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        Your music stays yours. Download a zip of every project and repository you own: each
        version&apos;s original audio, its comments and share links, your commits and bounces, and a
        manifest describing it all.
      </p>
      <div className="mt-4 flex flex-col items-start gap-3">
        {latest.isPending ? (
          <Spinner label="Loading your export" />
        ) : latest.isError ? (
          <Alert tone="error">{errorMessage(latest.error, 'Failed to load your export')}</Alert>
        ) : inFlight(current) && current ? (
          <div className="w-full max-w-md">
            <ProgressBar percent={current.progress} label="Preparing your export" />
          </div>
        ) : (
          <>
            {current?.state === 'ready' && current.expires_at && (
              <div className="flex flex-col gap-1 text-sm">
                <a
                  href={api.url(exportsApi.downloadDataExport, { params: { id: current.id } })}
                  download
                  className={secondaryButton}
                >
                  Download ({formatFileSize(current.size ?? 0)})
                </a>
                <span className="text-zinc-600 dark:text-zinc-400">
                  Available until {formatDateTime(current.expires_at)}
                </span>
              </div>
            )}
            {current?.state === 'failed' && (
              <Alert tone="error">{current.error ?? 'The export could not be completed.'}</Alert>
            )}
            {current?.state === 'expired' && (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                Your last export has expired.
              </p>
            )}
            <button
              type="button"
              className={primaryButton}
              disabled={start.isPending}
              onClick={() => start.mutate()}
            >
              {current?.state === 'failed' ? 'Retry export' : 'Export my data'}
            </button>
            {start.isError && (
              <Alert tone="error">{errorMessage(start.error, 'Failed to start the export')}</Alert>
            )}
          </>
        )}
      </div>
    </section>
  );
}
