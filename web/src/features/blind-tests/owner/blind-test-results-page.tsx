import { BLIND_TEST_MODE_LABELS, type BlindTestResults } from '@takes/contract';
import { useParams } from 'react-router';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Alert } from '../../../ui/alert';
import { linkButton, primaryButton, secondaryButton } from '../../../ui/button-styles';
import { PageSpinner } from '../../../ui/spinner';
import { CopyLinkField, useCopied } from '../../share/copy-link-field';
import { useBlindTestResults, useMarkBlindWinner, useRevokeBlindTest } from './blind-tests-api';

const STATUS_WORDS = {
  preparing: 'Preparing the loudness-matched audio…',
  ready: 'Ready: listeners can take the test.',
  failed: 'The blind test could not be prepared.',
} as const;

/** /projects/:projectId/blind-tests/:testId: a blind test's links and results (Editors and up). */
export function BlindTestResultsPage() {
  const { projectId = '', testId = '' } = useParams();
  const results = useBlindTestResults(testId);
  useDocumentTitle(results.data ? `${results.data.test.name} · Blind test` : 'Blind test');
  if (results.isPending) return <PageSpinner label="Loading blind test" />;
  if (results.isError)
    return (
      <Frame projectId={projectId}>
        <Alert tone="error">{errorMessage(results.error, 'Blind test not found')}</Alert>
      </Frame>
    );
  return (
    <Frame projectId={projectId}>
      <Results projectId={projectId} data={results.data} />
    </Frame>
  );
}

function Frame({ projectId, children }: { projectId: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:px-6">
      <Link to={`/projects/${encodeURIComponent(projectId)}`} className={linkButton}>
        ← Back to project
      </Link>
      {children}
    </div>
  );
}

function Results({ projectId, data }: { projectId: string; data: BlindTestResults }) {
  const { test, preference, abx } = data;
  const revoke = useRevokeBlindTest(projectId, test.id);
  const winner = useMarkBlindWinner(test.id);
  const [copied, setCopied] = useCopied<string>();
  const winnerVersion = test.versions.find((v) => v.id === preference?.winner_version_id);
  return (
    <>
      <header className="space-y-1">
        <h1 className="text-2xl font-bold">{test.name}</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-300">
          {BLIND_TEST_MODE_LABELS[test.mode]}
          {test.trials ? ` · ${test.trials} trials` : ''} ·{' '}
          {test.versions.map((v) => v.label).join(', ')}
        </p>
        <p className="text-sm" role="status">
          {test.revoked ? 'Revoked: its links no longer open.' : STATUS_WORDS[test.status]}
        </p>
      </header>

      <section aria-labelledby="blind-summary" className="space-y-2">
        <h2 id="blind-summary" className="text-lg font-semibold">
          Results
        </h2>
        <p>{data.summary}</p>
        {winnerVersion ? (
          <div className="flex flex-wrap items-center gap-2">
            <button
              type="button"
              className={primaryButton}
              disabled={winner.isPending}
              onClick={() => winner.mutate(winnerVersion.id)}
            >
              Mark the winner Approved
            </button>
            {winner.isSuccess ? (
              <span role="status">{winnerVersion.label} is Approved.</span>
            ) : null}
            {winner.isError ? (
              <Alert tone="error">{errorMessage(winner.error, 'Could not approve')}</Alert>
            ) : null}
          </div>
        ) : null}
      </section>

      {preference ? (
        <section aria-labelledby="blind-preference" className="space-y-2">
          <h2 id="blind-preference" className="text-lg font-semibold">
            Preference
          </h2>
          <ul className="space-y-3">
            {preference.votes.map((row) => (
              <li
                key={row.version.id}
                className="rounded border border-zinc-200 p-3 dark:border-zinc-800"
              >
                <p className="font-medium">
                  {row.version.label}: {row.count} {row.count === 1 ? 'vote' : 'votes'}
                </p>
                {row.voters.length > 0 ? (
                  <ul className="mt-1 space-y-1 text-sm text-zinc-700 dark:text-zinc-300">
                    {row.voters.map((voter) => (
                      <li key={`${voter.name}-${voter.voted_at}`}>
                        {voter.name}
                        {voter.note ? `: “${voter.note}”` : ''}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {abx ? (
        <section aria-labelledby="blind-abx" className="space-y-2">
          <h2 id="blind-abx" className="text-lg font-semibold">
            ABX
          </h2>
          <p>{abx.total > 0 ? `All listeners: ${abx.verdict}` : 'No trials answered yet.'}</p>
          {abx.listeners.length > 0 ? (
            <table className="w-full text-left text-sm">
              <thead>
                <tr>
                  <th scope="col">Listener</th>
                  <th scope="col">Correct</th>
                  <th scope="col">p-value</th>
                  <th scope="col">Heard the difference</th>
                </tr>
              </thead>
              <tbody>
                {abx.listeners.map((listener, index) => (
                  <tr key={`${listener.name}-${index}`}>
                    <td>
                      {listener.name}
                      {listener.finished ? '' : ' (not finished)'}
                    </td>
                    <td>
                      {listener.correct} of {listener.total}
                    </td>
                    <td>{listener.p_value?.toFixed(3) ?? '—'}</td>
                    <td>{listener.heard ? 'Yes' : 'No'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </section>
      ) : null}

      <section aria-labelledby="blind-links" className="space-y-3">
        <h2 id="blind-links" className="text-lg font-semibold">
          Links
        </h2>
        {test.links.map((link) => (
          <CopyLinkField
            key={link.id}
            label={link.recipient ? `Link for ${link.recipient.name}` : 'Link'}
            url={link.url}
            copied={copied === link.id}
            onCopied={() => setCopied(link.id)}
          >
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              Opened by {link.opened}, voted {link.voted}
              {link.last_activity_at ? ` · last ${formatDateTime(link.last_activity_at)}` : ''}
            </p>
          </CopyLinkField>
        ))}
        {!test.revoked ? (
          <button
            type="button"
            className={secondaryButton}
            disabled={revoke.isPending}
            onClick={() => revoke.mutate()}
          >
            Revoke
          </button>
        ) : null}
      </section>
    </>
  );
}
