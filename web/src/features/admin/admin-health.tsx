import type { ReactNode } from 'react';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { PageSpinner } from '../../ui/spinner';
import { adminCardClass } from './admin-card';
import { useDebugReport, useRoundTrip } from './debug-api';

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

/**
 * The server's health and the debug report (what /debug showed before the admin page): the
 * database, storage, ffmpeg and the job queue, and a timed database round trip.
 */
export function AdminHealth() {
  const report = useDebugReport();
  const roundTrip = useRoundTrip();

  return (
    <div className="space-y-4" id="health">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-2xl font-bold tracking-tight">Health</h2>
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
          <section aria-labelledby="debug-database" className={adminCardClass}>
            <h3 id="debug-database" className="text-lg font-semibold">
              Database
            </h3>
            <dl className="mt-2">
              <Row label="Dialect">{report.data.database.dialect}</Row>
              <Row label="Migrations">{report.data.database.migrations.length}</Row>
              <Row label="Latest migration">{report.data.database.latest ?? '—'}</Row>
            </dl>
          </section>
          <section aria-labelledby="debug-storage" className={adminCardClass}>
            <h3 id="debug-storage" className="text-lg font-semibold">
              Storage
            </h3>
            <dl className="mt-2">
              <Row label="Kind">{report.data.storage.kind}</Row>
              <Row label="Status">
                <StatusBadge status={report.data.storage.status} />
              </Row>
              {report.data.storage.detail && <Row label="Detail">{report.data.storage.detail}</Row>}
            </dl>
          </section>
          <section aria-labelledby="debug-ffmpeg" className={adminCardClass}>
            <h3 id="debug-ffmpeg" className="text-lg font-semibold">
              ffmpeg
            </h3>
            <dl className="mt-2">
              <Row label="Status">
                <StatusBadge status={report.data.ffmpeg.status} />
              </Row>
              <Row label="Version">{report.data.ffmpeg.version ?? '—'}</Row>
              <Row label="Source">{report.data.ffmpeg.source ?? '—'}</Row>
            </dl>
          </section>
          <section aria-labelledby="debug-jobs" className={adminCardClass}>
            <h3 id="debug-jobs" className="text-lg font-semibold">
              Job queue
            </h3>
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

      <section aria-labelledby="debug-round-trip" className={adminCardClass}>
        <h3 id="debug-round-trip" className="text-lg font-semibold">
          Database round trip
        </h3>
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
