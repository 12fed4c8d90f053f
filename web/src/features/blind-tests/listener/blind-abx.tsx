import { BLIND_TEST_MODE_LABELS } from '@takes/contract';
import { useId, useMemo } from 'react';
import { errorMessage } from '../../../lib/api';
import { Alert } from '../../../ui/alert';
import { primaryButton } from '../../../ui/button-styles';
import {
  useAnswerBlindTrial,
  useStartBlindTrial,
  type BlindListenerPage,
} from './blind-listener-api';
import type { ListenerPart } from './blind-preference';
import { BlindTransport } from './blind-transport';
import { useBlindPlayer } from './use-blind-player';

type Abx = NonNullable<BlindListenerPage['abx']>;

/** Where the listener is in the trials, in words (never whether an answer was right). */
function progress(abx: Abx): string {
  if (abx.result) return abx.result.verdict;
  if (abx.trial) return `Trial ${abx.trial.number} of ${abx.trials}`;
  if (abx.answered > 0) return `Trial ${abx.answered} of ${abx.trials} answered`;
  return '';
}

/**
 * The ABX trials: A, B and the trial's X on one transport; 'Is X A or B?' answered with A's or
 * B's option id. The server draws X and checks the answers: the page never knows which X is.
 */
export function AbxPart({
  hash,
  page,
  abx,
  engaged,
  onEngage,
  requireName,
  onNamed,
}: ListenerPart & { abx: Abx }) {
  const { a, b, trial } = abx;
  const options = useMemo(() => (trial ? [a, b, trial.x] : [a, b]), [a, b, trial]);
  const player = useBlindPlayer(options, { engaged, onEngage, knownDuration: page.duration });
  const start = useStartBlindTrial(hash);
  const answer = useAnswerBlindTrial(hash);
  const headingId = useId();
  const questionId = useId();
  const busy = start.isPending || answer.isPending;
  const error = start.error ?? answer.error;

  function startTrial() {
    const name = requireName();
    if (name === null || busy) return;
    answer.reset();
    start.mutate(name, { onSuccess: () => onNamed(name) });
  }

  function answerTrial(optionId: string) {
    if (!trial || busy) return;
    start.reset();
    answer.mutate({ trial: trial.number, answer: optionId });
  }

  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <h2 id={headingId} className="text-lg font-semibold">
        {BLIND_TEST_MODE_LABELS.abx}
      </h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-300">
        X is either A or B, drawn again for every trial. Listen to all three, then say which one X
        is.
      </p>
      <BlindTransport player={player} label="A, B and X" />
      <p role="status" className="font-medium">
        {progress(abx)}
      </p>
      {abx.result ? null : trial ? (
        <div role="group" aria-labelledby={questionId} className="space-y-2">
          <p id={questionId} className="text-sm font-medium">
            Is X A or B?
          </p>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={primaryButton}
              disabled={busy}
              onClick={() => answerTrial(a.id)}
            >
              X is A
            </button>
            <button
              type="button"
              className={primaryButton}
              disabled={busy}
              onClick={() => answerTrial(b.id)}
            >
              X is B
            </button>
          </div>
        </div>
      ) : (
        <button
          type="button"
          className={primaryButton}
          disabled={busy}
          aria-busy={start.isPending || undefined}
          onClick={startTrial}
        >
          {abx.answered === 0 ? `Start trial 1 of ${abx.trials}` : 'Next trial'}
        </button>
      )}
      {error ? (
        <Alert tone="error">
          {errorMessage(error, 'That did not go through. Please try again.')}
        </Alert>
      ) : null}
    </section>
  );
}
