import {
  COMPARE_LOSSLESS_MAX_SECONDS,
  may,
  routes,
  SHARE_MESSAGES,
  type CompareResponse,
} from '@takes/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, ApiError, errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { linkButton } from '../../ui/button-styles';
import { PageSpinner } from '../../ui/spinner';
import { BlindTestButton } from '../blind-tests/owner/blind-test-dialog';
import {
  ComparePlatformPreview,
  useComparePlatformPreview,
} from '../platform-preview/compare-platform-preview';
import { useVersionChanges } from './changes-lane';
import { ComparePanel } from './compare-panel';
import { useCompare, type CompareItem } from './use-compare';

type Side = CompareResponse['a'];

/**
 * What a compare slot needs of a version: its 320k rendition, or for lossless its FLAC (about
 * half a WAV's bytes, and decodable where an AIFF or ALAC original is not; the original itself
 * where there is no FLAC).
 */
export function compareItemOf(version: Side, lossless: boolean): CompareItem {
  const peaks = version.waveform_data?.peaks ?? null;
  const duration =
    version.waveform_data?.duration ??
    (typeof version.metadata?.duration === 'number' ? version.metadata.duration : null);
  return {
    id: version.id,
    title: `Version ${version.version_number} · ${version.branch_name}${version.message ? ` · ${version.message}` : ''}`,
    filename: '',
    created_at: version.created_at,
    duration,
    loudness: version.loudness,
    waveform_json: peaks && duration ? { min: peaks.map((p) => -p), max: peaks, duration } : null,
    stream_url: `/api/versions/${encodeURIComponent(version.id)}/stream?quality=${lossless ? 'lossless' : 'high'}`,
  };
}

/** Lossless is offered when both sides are shorter than 10 minutes (decoding is in memory). */
export function losslessAllowed(data: CompareResponse): boolean {
  return [data.a, data.b].every((side) => {
    const seconds =
      side.waveform_data?.duration ??
      (typeof side.metadata?.duration === 'number' ? side.metadata.duration : null);
    return seconds !== null && seconds < COMPARE_LOSSLESS_MAX_SECONDS;
  });
}

/** /projects/:projectId/compare?a=&b=: two versions of one project, A/B on one clock. */
export function VersionComparePage() {
  const { projectId = '' } = useParams();
  const [search] = useSearchParams();
  const a = search.get('a') ?? '';
  const b = search.get('b') ?? '';
  const compared = useQuery({
    queryKey: ['compare', projectId, a, b],
    queryFn: ({ signal }) =>
      api.call(routes.review.compareVersions, { params: { projectId }, query: { a, b }, signal }),
    enabled: projectId !== '' && a !== '' && b !== '',
    retry: false,
  });
  useDocumentTitle(
    compared.data
      ? `Compare Version ${compared.data.a.version_number} and ${compared.data.b.version_number} · ${compared.data.project.name}`
      : 'Compare versions',
  );

  if (a === '' || b === '')
    return (
      <CompareFrame projectId={projectId}>
        <Alert tone="error">Pick two versions to compare</Alert>
      </CompareFrame>
    );
  if (compared.isPending) return <PageSpinner label="Loading versions" />;
  if (compared.isError) {
    const notFound = compared.error instanceof ApiError && compared.error.status === 404;
    return (
      <CompareFrame projectId={projectId}>
        <Alert tone="error">
          {notFound
            ? SHARE_MESSAGES.versionNotFound
            : errorMessage(compared.error, 'Failed to load')}
        </Alert>
      </CompareFrame>
    );
  }
  return <VersionCompare data={compared.data} />;
}

function CompareFrame({ projectId, children }: { projectId: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-6xl space-y-4 px-4 py-8 sm:px-6">
      <Link to={`/projects/${projectId}`} className={linkButton}>
        ← Back to project
      </Link>
      <h1 className="text-2xl font-bold">Compare versions</h1>
      {children}
    </div>
  );
}

function VersionCompare({ data }: { data: CompareResponse }) {
  const platformPreview = useComparePlatformPreview(data.a, data.b);
  const compare = useCompare({ previewGainDb: platformPreview.gainDb });
  const [lossless, setLossless] = useState(false);
  const losslessId = useId();
  const canLossless = losslessAllowed(data);
  // What A changed against B, on A's timeline: the 'Changes' lane under A's waveform.
  const changes = useVersionChanges(data.a.id, data.b.id);
  const { setSlot } = compare;
  useEffect(() => {
    setSlot('A', compareItemOf(data.a, lossless && canLossless));
    setSlot('B', compareItemOf(data.b, lossless && canLossless));
  }, [data, lossless, canLossless, setSlot]);

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-6">
      <header className="space-y-1">
        <Link to={`/projects/${data.project.id}`} className={linkButton}>
          ← Back to {data.project.name}
        </Link>
        <h1 className="text-2xl font-bold">
          Compare Version {data.a.version_number} and Version {data.b.version_number}
        </h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-300">
          Both play from the same position; Space switches between A and B, a and b pick one, n and
          Shift+n jump to the next and previous change.
        </p>
      </header>
      <div className="flex items-center gap-2 text-sm">
        <input
          id={losslessId}
          type="checkbox"
          checked={lossless && canLossless}
          disabled={!canLossless}
          onChange={(event) => setLossless(event.target.checked)}
          aria-describedby={`${losslessId}-hint`}
          className="size-4 accent-indigo-600"
        />
        <label htmlFor={losslessId}>Lossless</label>
        <span id={`${losslessId}-hint`} className="text-xs text-zinc-600 dark:text-zinc-400">
          {canLossless
            ? 'Decode the originals instead of the 320k renditions.'
            : 'Only for versions shorter than 10 minutes.'}
        </span>
      </div>
      <ComparePlatformPreview
        preview={platformPreview}
        matchLoudness={compare.matchLoudness}
        setMatchLoudness={compare.setMatchLoudness}
      />
      <ComparePanel compare={compare} lane={{ changes: changes.data }} />
      {may(data.project.role, 'share') ? (
        <BlindTestButton
          projectId={data.project.id}
          projectName={data.project.name}
          versionIds={[data.a.id, data.b.id]}
        />
      ) : null}
    </div>
  );
}
