import type { ReactNode } from 'react';
import { errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { PageSpinner } from '../../ui/spinner';
import { isNotAvailable, useDebugReport, useRoundTrip } from './debug-api';

const cardClass =
  'rounded-lg border border-zinc-200 bg-white p-5 dark:border-zinc-800 dark:bg-zinc-900';

function StatusBadge({ status }: { status: string }) {
  const healthy = status === 'ok' || status === 'healthy' || status === 'available';
  return <Badge tone={healthy ? 'green' : 'red'}>{status}</Badge>;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1 text-sm">
      <dt className="text-zinc-600 dark:text-zinc-300">{label}</dt>
      <dd className="text-right font-medium break-all">{children}</dd>
    </div>
  );
}

export function DebugPage() {
  useDocumentTitle('Debug · Takes');
  const report = useDebugReport();
  const roundTrip = useRoundTrip();

  if (report.isError && isNotAvailable(report.error)) {
    return (
      <div className="mx-auto max-w-4xl space-y-6 px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight">Debug</h1>
        <Alert tone="info">
          The debug page is only available to the administrators of this Takes server. Ask the
          person who runs it to add your verified email address to ADMIN_EMAILS.
        </Alert>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight">Debug</h1>
        <button
          type="button"
          className={secondaryButton}
          onClick={() => void report.refetch()}
          disabled={report.isFetching}
        >
          Refresh
        </button>
      </div>

      {report.isPending ? (
        <PageSpinner label="Loading server health" />
      ) : report.isError ? (
        <Alert tone="error">{errorMessage(report.error, 'Failed to load')}</Alert>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2">
          <section aria-labelledby="debug-database" className={cardClass}>
            <h2 id="debug-database" className="text-lg font-semibold">
              Database
            </h2>
            <dl className="mt-2">
              <Row label="Dialect">{report.data.database.dialect}</Row>
              <Row label="Migrations">{report.data.database.migrations.length}</Row>
              <Row label="Latest migration">{report.data.database.latest ?? '—'}</Row>
            </dl>
          </section>
          <section aria-labelledby="debug-storage" className={cardClass}>
            <h2 id="debug-storage" className="text-lg font-semibold">
              Storage
            </h2>
            <dl className="mt-2">
              <Row label="Kind">{report.data.storage.kind}</Row>
              <Row label="Status">
                <StatusBadge status={report.data.storage.status} />
              </Row>
              {report.data.storage.detail && <Row label="Detail">{report.data.storage.detail}</Row>}
            </dl>
          </section>
          <section aria-labelledby="debug-ffmpeg" className={cardClass}>
            <h2 id="debug-ffmpeg" className="text-lg font-semibold">
              ffmpeg
            </h2>
            <dl className="mt-2">
              <Row label="Status">
                <StatusBadge status={report.data.ffmpeg.status} />
              </Row>
              <Row label="Version">{report.data.ffmpeg.version ?? '—'}</Row>
              <Row label="Source">{report.data.ffmpeg.source ?? '—'}</Row>
            </dl>
          </section>
          <section aria-labelledby="debug-jobs" className={cardClass}>
            <h2 id="debug-jobs" className="text-lg font-semibold">
              Job queue
            </h2>
            <dl className="mt-2">
              <Row label="Queue">{report.data.jobs.queue}</Row>
              <Row label="Queued">{report.data.jobs.queued}</Row>
              <Row label="Active">{report.data.jobs.active}</Row>
              <Row label="Completed">{report.data.jobs.completed}</Row>
              <Row label="Failed">{report.data.jobs.failed}</Row>
            </dl>
          </section>
        </div>
      )}

      <section aria-labelledby="debug-round-trip" className={cardClass}>
        <h2 id="debug-round-trip" className="text-lg font-semibold">
          Database round trip
        </h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
          Inserts a test project and deletes it again.
        </p>
        <button
          type="button"
          className={`${primaryButton} mt-3`}
          onClick={() => roundTrip.mutate()}
          disabled={roundTrip.isPending}
        >
          {roundTrip.isPending ? 'Running...' : 'Run round trip'}
        </button>
        {roundTrip.isSuccess && (
          <Alert tone="success" className="mt-3">
            Round trip passed: insert {roundTrip.data.insert_ms} ms, delete{' '}
            {roundTrip.data.delete_ms} ms (project {roundTrip.data.project_id}).
          </Alert>
        )}
        {roundTrip.isError && (
          <Alert tone="error" className="mt-3">
            {errorMessage(roundTrip.error, 'Round trip failed.')}
          </Alert>
        )}
      </section>
    </div>
  );
}
