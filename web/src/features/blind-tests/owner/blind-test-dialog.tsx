import {
  BLIND_TEST_MESSAGES,
  BLIND_TEST_MODE_LABELS,
  BLIND_TEST_MODES,
  BLIND_TEST_TRIALS_DEFAULT,
  BLIND_TEST_TRIALS_MAX,
  BLIND_TEST_TRIALS_MIN,
  BLIND_TEST_VERSIONS_MAX,
  BLIND_TEST_VERSIONS_MIN,
  LINK_PASSWORD_MESSAGES,
  LINK_PASSWORD_MIN,
  type BlindTest,
  type BlindTestMode,
  type BranchWithVersions,
} from '@takes/contract';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { Alert } from '../../../ui/alert';
import { linkButton, primaryButton, secondaryButton } from '../../../ui/button-styles';
import { Modal } from '../../../ui/modal';
import { inputClass, TextField } from '../../../ui/text-field';
import { useBranches } from '../../projects/projects-api';
import { CopyLinkField, useCopied } from '../../share/copy-link-field';
import { CheckboxField, ExpiryDateField, expiryFromDate } from '../../share/link-fields';
import { blindTestPath, useCreateBlindTest } from './blind-tests-api';

/** 'Blind test…': opens the dialog with these versions ticked. */
export function BlindTestButton({
  projectId,
  projectName,
  versionIds,
  className = secondaryButton,
}: {
  projectId: string;
  projectName: string;
  versionIds: readonly string[];
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)}>
        Blind test…
      </button>
      {open ? (
        <BlindTestDialog
          projectId={projectId}
          projectName={projectName}
          initial={versionIds}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

/**
 * Makes a blind test: 2–4 versions of the project (any branches), a mode, and a link like any
 * share link (name, expiry, password, one link per recipient).
 */
export function BlindTestDialog({
  projectId,
  projectName,
  initial,
  onClose,
}: {
  projectId: string;
  projectName: string;
  initial: readonly string[];
  onClose: () => void;
}) {
  const branches = useBranches(projectId);
  const create = useCreateBlindTest(projectId);
  const ids = useId();
  const [chosen, setChosen] = useState<string[]>(initial.slice(0, BLIND_TEST_VERSIONS_MAX));
  const [mode, setMode] = useState<BlindTestMode>('preference');
  const [trials, setTrials] = useState(String(BLIND_TEST_TRIALS_DEFAULT));
  const [name, setName] = useState(`${projectName} blind test`);
  const [expiryDate, setExpiryDate] = useState('');
  const [password, setPassword] = useState('');
  const [reveal, setReveal] = useState(true);
  const [recipients, setRecipients] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [made, setMade] = useState<BlindTest | null>(null);

  const abx = mode !== 'preference';
  function toggle(versionId: string, on: boolean) {
    setChosen((current) =>
      on ? [...current, versionId] : current.filter((id) => id !== versionId),
    );
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const count = chosen.length;
    if (count < BLIND_TEST_VERSIONS_MIN || count > BLIND_TEST_VERSIONS_MAX)
      return setProblem(BLIND_TEST_MESSAGES.versionCount);
    if (abx && count !== 2) return setProblem(BLIND_TEST_MESSAGES.abxTwo);
    const trialCount = Number(trials);
    if (
      abx &&
      (!Number.isInteger(trialCount) ||
        trialCount < BLIND_TEST_TRIALS_MIN ||
        trialCount > BLIND_TEST_TRIALS_MAX)
    )
      return setProblem(BLIND_TEST_MESSAGES.trials);
    if (password !== '' && password.length < LINK_PASSWORD_MIN)
      return setProblem(LINK_PASSWORD_MESSAGES.tooShort);
    setProblem(null);
    const names = recipients
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    try {
      setMade(
        await create.mutateAsync({
          version_ids: chosen,
          mode,
          ...(abx ? { trials: trialCount } : {}),
          name: name.trim(),
          expires_at: expiryFromDate(expiryDate),
          ...(password !== '' ? { password } : {}),
          reveal_after_voting: reveal,
          ...(names.length > 0 ? { recipients: names.map((n) => ({ name: n })) } : {}),
        }),
      );
    } catch (error) {
      setProblem(errorMessage(error, 'The blind test could not be made.'));
    }
  }

  return (
    <Modal
      title="Blind test…"
      description="Listeners hear the versions by letter only, at the same loudness."
      onClose={onClose}
      wide
    >
      {made ? (
        <MadeTest test={made} onClose={onClose} />
      ) : (
        <form onSubmit={(event) => void submit(event)} className="space-y-4" noValidate>
          {problem ? <Alert tone="error">{problem}</Alert> : null}
          <fieldset>
            <legend className="text-sm font-medium">
              Versions ({BLIND_TEST_VERSIONS_MIN}–{BLIND_TEST_VERSIONS_MAX})
            </legend>
            <VersionChoices branches={branches.data ?? []} chosen={chosen} onToggle={toggle} />
          </fieldset>
          <div>
            <label htmlFor={`${ids}-mode`} className="block text-sm font-medium">
              Mode
            </label>
            <select
              id={`${ids}-mode`}
              value={mode}
              onChange={(event) => setMode(event.target.value as BlindTestMode)}
              className={`${inputClass} mt-1 border-zinc-300 dark:border-zinc-700`}
            >
              {BLIND_TEST_MODES.map((m) => (
                <option key={m} value={m}>
                  {BLIND_TEST_MODE_LABELS[m]}
                </option>
              ))}
            </select>
          </div>
          {abx ? (
            <TextField
              label={`Trials (${BLIND_TEST_TRIALS_MIN}–${BLIND_TEST_TRIALS_MAX})`}
              type="number"
              value={trials}
              onValueChange={setTrials}
            />
          ) : null}
          <TextField label="Name" value={name} onValueChange={setName} maxLength={100} />
          <ExpiryDateField id={`${ids}-expiry`} value={expiryDate} onChange={setExpiryDate} />
          <TextField
            label="Password (optional)"
            type="password"
            value={password}
            onValueChange={setPassword}
            autoComplete="new-password"
          />
          <CheckboxField
            id={`${ids}-reveal`}
            label="Reveal after voting"
            checked={reveal}
            onChange={setReveal}
            hint="A listener who has voted sees which version each letter was."
          />
          <div>
            <label htmlFor={`${ids}-recipients`} className="block text-sm font-medium">
              Recipients <span className="font-normal text-zinc-500">(optional, one per line)</span>
            </label>
            <textarea
              id={`${ids}-recipients`}
              value={recipients}
              onChange={(event) => setRecipients(event.target.value)}
              rows={3}
              className={`${inputClass} mt-1 border-zinc-300 dark:border-zinc-700`}
            />
          </div>
          <div className="flex justify-end gap-2">
            <button type="button" className={secondaryButton} onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className={primaryButton} disabled={create.isPending}>
              {create.isPending ? 'Making…' : 'Make blind test'}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}

function VersionChoices({
  branches,
  chosen,
  onToggle,
}: {
  branches: readonly BranchWithVersions[];
  chosen: readonly string[];
  onToggle: (versionId: string, on: boolean) => void;
}) {
  return (
    <div className="mt-1 max-h-56 space-y-3 overflow-y-auto">
      {branches.map((branch) => (
        <div key={branch.id}>
          <p className="text-xs font-semibold text-zinc-600 dark:text-zinc-300">{branch.name}</p>
          <ul className="space-y-1">
            {branch.versions.map((version) => (
              <li key={version.id}>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-indigo-600"
                    checked={chosen.includes(version.id)}
                    onChange={(event) => onToggle(version.id, event.target.checked)}
                  />
                  <span>
                    Version {version.version_number} · {branch.name}
                    {version.message ? ` · ${version.message}` : ''}
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

function MadeTest({ test, onClose }: { test: BlindTest; onClose: () => void }) {
  const [copied, setCopied] = useCopied<string>();
  return (
    <div className="space-y-4">
      <p className="text-sm">
        The blind test is being prepared: its loudness-matched audio is made in a moment. Send the
        link now; listeners can start once it is ready.
      </p>
      {test.links.map((link) => (
        <CopyLinkField
          key={link.id}
          label={link.recipient ? `Link for ${link.recipient.name}` : 'Link'}
          url={link.url}
          copied={copied === link.id}
          onCopied={() => setCopied(link.id)}
        />
      ))}
      <div className="flex justify-end gap-2">
        <Link to={blindTestPath(test.project_id, test.id)} className={linkButton}>
          See results
        </Link>
        <button type="button" className={primaryButton} onClick={onClose}>
          Done
        </button>
      </div>
    </div>
  );
}
