import { BLIND_TEST_MODE_LABELS } from '@takes/contract';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/format';
import { blindTestPath, useBlindTests } from './blind-tests-api';

const STATUS = { preparing: 'preparing', ready: 'open', failed: 'failed' } as const;

/** The project's blind tests, for whoever may share it (nothing while there are none). */
export function BlindTestsSection({ projectId }: { projectId: string }) {
  const tests = useBlindTests(projectId);
  if (!tests.data || tests.data.tests.length === 0) return null;
  return (
    <section
      aria-labelledby="blind-tests-heading"
      className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <h2 id="blind-tests-heading" className="text-lg font-semibold">
        Blind tests
      </h2>
      <ul className="mt-2 space-y-1 text-sm">
        {tests.data.tests.map((test) => (
          <li key={test.id}>
            <Link
              to={blindTestPath(projectId, test.id)}
              className="text-indigo-700 underline dark:text-indigo-300"
            >
              {test.name}
            </Link>{' '}
            <span className="text-zinc-600 dark:text-zinc-400">
              · {BLIND_TEST_MODE_LABELS[test.mode]} ·{' '}
              {test.revoked ? 'revoked' : STATUS[test.status]} · {formatDate(test.created_at)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
