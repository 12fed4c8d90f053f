import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { primaryButton } from '../../ui/button-styles';
import { TextField } from '../../ui/text-field';
import { useAuth } from '../auth/use-auth';
import { updateDisplayName } from './profile-api';

const MAX_DISPLAY_NAME_LENGTH = 100;

type SaveResult = { tone: 'success' | 'error'; message: string } | null;

export function DisplayNameForm({ initialDisplayName }: { initialDisplayName: string | null }) {
  const { refresh } = useAuth();
  const [displayName, setDisplayName] = useState(initialDisplayName ?? '');
  const [saving, setSaving] = useState(false);
  const [result, setResult] = useState<SaveResult>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    setResult(null);
    try {
      const trimmed = displayName.trim();
      const saved = await updateDisplayName(trimmed === '' ? null : trimmed);
      setDisplayName(saved.display_name ?? '');
      setResult({ tone: 'success', message: 'Profile saved.' });
      // The navbar's avatar initials come from the session.
      await refresh();
    } catch (error) {
      setResult({ tone: 'error', message: errorMessage(error, 'Failed to save your profile') });
    } finally {
      setSaving(false);
    }
  }

  return (
    <section aria-labelledby="display-name-heading">
      <h2 id="display-name-heading" className="text-lg font-semibold text-zinc-900 dark:text-white">
        Display name
      </h2>
      <form
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        className="mt-3 flex flex-col gap-3"
      >
        <TextField
          label="Display name"
          autoComplete="nickname"
          maxLength={MAX_DISPLAY_NAME_LENGTH}
          value={displayName}
          onValueChange={setDisplayName}
          hint="Shown to people you share with and next to your comments."
        />
        {result && <Alert tone={result.tone}>{result.message}</Alert>}
        <div>
          <button type="submit" className={primaryButton} disabled={saving}>
            Save
          </button>
        </div>
      </form>
    </section>
  );
}
