import { BLIND_TEST_MESSAGES } from '@takes/contract';
import { useCallback, useId, useRef, useState } from 'react';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Alert } from '../../../ui/alert';
import { PageSpinner } from '../../../ui/spinner';
import { TextField } from '../../../ui/text-field';
import { LinkFailure, lookupFailure } from '../../share/link-failure';
import { LinkPasswordForm } from '../../share/link-password-form';
import { isLockedAnswer } from '../../share/share-api';
import { useVisitorName } from '../../share/visitor-name';
import { AbxPart } from './blind-abx';
import {
  useBlindTest,
  useUnlockBlindTest,
  type BlindListenerPage as BlindListenerPageData,
} from './blind-listener-api';
import { PreferencePart } from './blind-preference';

const LISTENER_NAME_MAX = 100;

/** /share/:hash for a blind test's key: letters only, behind its password if it has one. */
export function BlindListenerPage({ hash }: { hash: string }) {
  const page = useBlindTest(hash);
  useDocumentTitle(page.data ? page.data.name : 'Blind test');

  if (page.isPending) return <PageSpinner label="Loading blind test" />;
  if (page.isError) {
    if (isLockedAnswer(page.error)) return <UnlockBlindTest hash={hash} />;
    return <LinkFailure title="Blind test" message={lookupFailure(page.error)} />;
  }
  return <BlindTestView hash={hash} page={page.data} />;
}

function UnlockBlindTest({ hash }: { hash: string }) {
  const unlock = useUnlockBlindTest(hash);
  return <LinkPasswordForm unlock={unlock} what="the blind test" />;
}

type Part = 'preference' | 'abx';

function BlindTestView({ hash, page }: { hash: string; page: BlindListenerPageData }) {
  // One name for voting and the trials, remembered on this device like a commenter's.
  const [visitorName, rememberName] = useVisitorName();
  const [name, setName] = useState(() => page.listener_name ?? page.recipient_name ?? visitorName);
  const [nameError, setNameError] = useState<string | undefined>(undefined);
  const nameRef = useRef<HTMLInputElement>(null);
  // A test with both parts keeps one part's audio decoded at a time: the one last played.
  const [engaged, setEngaged] = useState<Part>(page.mode === 'abx' ? 'abx' : 'preference');
  const engagePreference = useCallback(() => setEngaged('preference'), []);
  const engageAbx = useCallback(() => setEngaged('abx'), []);

  const requireName = useCallback((): string | null => {
    const trimmed = name.trim();
    if (trimmed === '') {
      setNameError(BLIND_TEST_MESSAGES.listenerName);
      nameRef.current?.focus();
      return null;
    }
    setNameError(undefined);
    return trimmed;
  }, [name]);

  const ready = page.status === 'ready';
  const shared = { hash, page, requireName, onNamed: rememberName };

  return (
    <div className="mx-auto max-w-2xl px-4 py-6 sm:px-6">
      <p className="text-sm font-medium text-indigo-700 dark:text-indigo-300">Blind test</p>
      <h1 className="mt-1 text-2xl font-bold break-words">{page.name}</h1>
      {page.levels_matched ? (
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">Levels matched</p>
      ) : null}

      {page.status === 'preparing' ? (
        <p role="status" className="mt-6 text-sm text-zinc-700 dark:text-zinc-300">
          The blind test is being prepared. This page opens it as soon as it is ready.
        </p>
      ) : page.status === 'failed' ? (
        <Alert tone="error" className="mt-6">
          {BLIND_TEST_MESSAGES.failed}
        </Alert>
      ) : null}

      {ready ? (
        <div className="mt-6 space-y-8">
          <div className="max-w-sm">
            <TextField
              label="Your name"
              value={name}
              onValueChange={(value) => {
                setName(value);
                if (value.trim() !== '') setNameError(undefined);
              }}
              inputRef={nameRef}
              error={nameError}
              maxLength={LISTENER_NAME_MAX}
              autoComplete="name"
            />
          </div>
          {page.mode !== 'abx' ? (
            <PreferencePart
              {...shared}
              engaged={engaged === 'preference'}
              onEngage={engagePreference}
            />
          ) : null}
          {page.mode !== 'preference' && page.abx ? (
            <AbxPart {...shared} abx={page.abx} engaged={engaged === 'abx'} onEngage={engageAbx} />
          ) : null}
          {page.reveal ? <Reveal reveal={page.reveal} /> : null}
        </div>
      ) : null}
    </div>
  );
}

/** After voting, when the owner allowed it: which version each letter was. */
function Reveal({ reveal }: { reveal: NonNullable<BlindListenerPageData['reveal']> }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        Which was which
      </h2>
      <ul className="mt-2 space-y-1 text-sm">
        {reveal.map((entry) => (
          <li key={entry.letter} className="break-words">
            {entry.letter} was {entry.label}
          </li>
        ))}
      </ul>
    </section>
  );
}
