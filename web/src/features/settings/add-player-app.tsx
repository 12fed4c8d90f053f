import {
  PLAYER_APP_MESSAGES,
  PLAYER_APP_NAME_MAX,
  PLAYER_APP_WORDS,
  type CreatedPlayerApp,
} from '@takes/contract';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { primaryButton, secondaryButton } from '../../ui/button-styles';
import { TextField } from '../../ui/text-field';
import { CopyLinkField, useCopied } from '../share/copy-link-field';
import { createPlayerApp } from './player-apps-api';

type Stage = { step: 'closed' } | { step: 'form' } | { step: 'created'; created: CreatedPlayerApp };

/**
 * 'Add a player app': the button, then the form (name, 'Only the latest version of each
 * branch'), then the new key with the server address, shown once until 'Done'.
 */
export function AddPlayerApp({ onCreated }: { onCreated: () => void }) {
  const [stage, setStage] = useState<Stage>({ step: 'closed' });
  const addRef = useRef<HTMLButtonElement>(null);
  const focusAdd = useRef(false);

  useEffect(() => {
    if (stage.step !== 'closed' || !focusAdd.current) return;
    focusAdd.current = false;
    addRef.current?.focus();
  }, [stage]);

  function close() {
    focusAdd.current = true;
    setStage({ step: 'closed' });
  }

  if (stage.step === 'created') return <CreatedKey created={stage.created} onDone={close} />;
  if (stage.step === 'form')
    return (
      <AddForm
        onCancel={close}
        onCreated={(created) => {
          setStage({ step: 'created', created });
          onCreated();
        }}
      />
    );
  return (
    <div>
      <button
        ref={addRef}
        type="button"
        className={secondaryButton}
        onClick={() => setStage({ step: 'form' })}
      >
        {PLAYER_APP_WORDS.add}
      </button>
    </div>
  );
}

/** The name's problem before it is sent, as the server words it. */
function nameProblem(name: string): string | undefined {
  if (name === '') return PLAYER_APP_MESSAGES.nameRequired;
  if (name.length > PLAYER_APP_NAME_MAX) return PLAYER_APP_MESSAGES.nameTooLong;
  return undefined;
}

function AddForm({
  onCancel,
  onCreated,
}: {
  onCancel: () => void;
  onCreated: (created: CreatedPlayerApp) => void;
}) {
  const headingId = useId();
  const latestHintId = useId();
  const [name, setName] = useState('');
  const [latestOnly, setLatestOnly] = useState(false);
  const [nameError, setNameError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);

  useEffect(() => nameRef.current?.focus(), []);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    const problem = nameProblem(trimmed);
    setNameError(problem);
    setFailure(null);
    if (problem) {
      nameRef.current?.focus();
      return;
    }
    setPending(true);
    try {
      onCreated(await createPlayerApp({ name: trimmed, latest_only: latestOnly }));
    } catch (error) {
      setFailure(errorMessage(error, 'Failed to add the player app'));
      setPending(false);
    }
  }

  return (
    <form
      aria-labelledby={headingId}
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      className="flex flex-col gap-4 rounded-md border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <h4 id={headingId} className="font-medium text-zinc-900 dark:text-white">
        {PLAYER_APP_WORDS.add}
      </h4>
      <TextField
        label="Name"
        value={name}
        onValueChange={(value) => {
          setName(value);
          setNameError(undefined);
        }}
        error={nameError}
        hint="What you call the device, so you can tell your keys apart."
        placeholder="Car (Symfonium)"
        autoComplete="off"
        inputRef={nameRef}
      />
      <div>
        <label className="flex items-start gap-2 text-sm font-medium text-zinc-800 dark:text-zinc-200">
          <input
            type="checkbox"
            className="mt-0.5 size-4 shrink-0 accent-indigo-600"
            checked={latestOnly}
            aria-describedby={latestHintId}
            onChange={(event) => setLatestOnly(event.target.checked)}
          />
          {PLAYER_APP_WORDS.latestOnly}
        </label>
        <p id={latestHintId} className="mt-1 ml-6 text-xs text-zinc-500 dark:text-zinc-400">
          Each album then holds one track per branch, its newest version, instead of every version.
        </p>
      </div>
      {failure && <Alert tone="error">{failure}</Alert>}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={primaryButton} disabled={pending}>
          {pending ? 'Creating key...' : 'Create key'}
        </button>
        <button type="button" className={secondaryButton} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

type Copied = 'address' | 'key';

/** The new key and the address to type in, once: 'Done' forgets the key for good. */
function CreatedKey({ created, onDone }: { created: CreatedPlayerApp; onDone: () => void }) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useCopied<Copied>();

  useEffect(() => headingRef.current?.focus(), []);

  return (
    <div
      role="group"
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-md border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <h4
        id={headingId}
        ref={headingRef}
        tabIndex={-1}
        className="font-medium break-words text-zinc-900 focus:outline-none dark:text-white"
      >
        Key for {created.player_app.name}
      </h4>
      <Alert tone="info">{PLAYER_APP_WORDS.keyShownOnce}</Alert>
      <CopyLinkField
        label="Server address"
        url={created.server_url}
        copied={copied === 'address'}
        onCopied={() => setCopied('address')}
        copyLabelSuffix="server address"
      />
      <CopyLinkField
        label="API key"
        url={created.api_key}
        copied={copied === 'key'}
        onCopied={() => setCopied('key')}
        copyLabelSuffix="API key"
      />
      <p role="status" className="sr-only">
        {copied === 'address' ? 'Server address copied to the clipboard' : ''}
        {copied === 'key' ? 'API key copied to the clipboard' : ''}
      </p>
      <ol className="list-decimal space-y-1 pl-5 text-sm text-zinc-700 dark:text-zinc-300">
        <li>In the player app, add a server (it may say Subsonic or OpenSubsonic).</li>
        <li>Type the server address above.</li>
        <li>Choose API key (OpenSubsonic) sign-in if the app offers it, and paste the key.</li>
      </ol>
      <div>
        <button type="button" className={primaryButton} onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
