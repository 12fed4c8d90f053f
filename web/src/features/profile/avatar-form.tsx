import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { primaryButton } from '../../ui/button-styles';
import { UserAvatar } from '../auth/user-avatar';
import { useAuth, useCurrentUser } from '../auth/use-auth';
import { AVATAR_MAX_BYTES, AVATAR_TYPES, uploadAvatar, type Profile } from './profile-api';

type Feedback = { tone: 'success' | 'error'; message: string } | null;

/** Why a picked file cannot be an avatar, or null when it can. The server checks the content again. */
function avatarProblem(file: File): string | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) {
    return 'Please choose a PNG, JPEG or WebP image.';
  }
  if (file.size > AVATAR_MAX_BYTES) return 'The image must be 2 MB or smaller.';
  return null;
}

export function AvatarForm({ profile }: { profile: Profile }) {
  const { refresh } = useAuth();
  const user = useCurrentUser();
  const inputId = useId();
  const [avatarUrl, setAvatarUrl] = useState(profile.avatar_url);
  const [selected, setSelected] = useState<{ file: File; previewUrl: string } | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [uploading, setUploading] = useState(false);
  // A new key empties the file input after an upload.
  const [inputKey, setInputKey] = useState(0);

  // The preview's object URL, released when replaced and when the form goes away.
  const previewUrlRef = useRef<string | null>(null);

  function choose(next: { file: File; previewUrl: string } | null) {
    if (previewUrlRef.current) URL.revokeObjectURL(previewUrlRef.current);
    previewUrlRef.current = next?.previewUrl ?? null;
    setSelected(next);
  }

  useEffect(
    () => () => {
      if (previewUrlRef.current) URL.revokeObjectURL(previewUrlRef.current);
    },
    [],
  );

  function onFileChange(file: File | undefined) {
    setFeedback(null);
    const problem = file ? avatarProblem(file) : null;
    if (!file || problem) {
      choose(null);
      if (problem) setFeedback({ tone: 'error', message: problem });
      return;
    }
    choose({ file, previewUrl: URL.createObjectURL(file) });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!selected) return;
    setUploading(true);
    setFeedback(null);
    try {
      const uploaded = await uploadAvatar(selected.file);
      setAvatarUrl(uploaded.avatar_url);
      choose(null);
      setInputKey((key) => key + 1);
      setFeedback({ tone: 'success', message: 'Avatar updated.' });
      await refresh();
    } catch (error) {
      setFeedback({ tone: 'error', message: errorMessage(error, 'Avatar upload failed') });
    } finally {
      setUploading(false);
    }
  }

  const shownUrl = selected?.previewUrl ?? avatarUrl;
  return (
    <section aria-labelledby="avatar-heading">
      <h2 id="avatar-heading" className="text-lg font-semibold text-zinc-900 dark:text-white">
        Avatar
      </h2>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-3 flex items-start gap-4">
        <UserAvatar user={{ ...user, avatar_url: shownUrl }} className="size-16 text-lg" />
        <div className="flex flex-1 flex-col gap-3">
          <div>
            <label
              htmlFor={inputId}
              className="block text-sm font-medium text-zinc-800 dark:text-zinc-200"
            >
              Avatar image
            </label>
            <input
              key={inputKey}
              id={inputId}
              type="file"
              accept={AVATAR_TYPES.join(',')}
              onChange={(event) => onFileChange(event.target.files?.[0])}
              aria-describedby={`${inputId}-hint`}
              className="mt-1 block w-full text-sm text-zinc-700 file:mr-3 file:rounded-md file:border-0 file:bg-zinc-100 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-zinc-800 hover:file:bg-zinc-200 dark:text-zinc-300 dark:file:bg-zinc-800 dark:file:text-zinc-100"
            />
            <p id={`${inputId}-hint`} className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
              PNG, JPEG or WebP, up to 2 MB.
            </p>
          </div>
          {feedback && <Alert tone={feedback.tone}>{feedback.message}</Alert>}
          <div>
            <button type="submit" className={primaryButton} disabled={!selected || uploading}>
              Upload avatar
            </button>
          </div>
        </div>
      </form>
    </section>
  );
}
