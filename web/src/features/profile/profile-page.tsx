import { useEffect, useState } from 'react';
import { errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { PageSpinner } from '../../ui/spinner';
import { AvatarForm } from './avatar-form';
import { DisplayNameForm } from './display-name-form';
import { fetchProfile, type Profile } from './profile-api';

type ProfileLoad =
  { phase: 'loading' } | { phase: 'failed'; error: string } | { phase: 'loaded'; profile: Profile };

export function ProfilePage() {
  useDocumentTitle('Your Profile · Takes');
  const [load, setLoad] = useState<ProfileLoad>({ phase: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    fetchProfile(controller.signal)
      .then((profile) => setLoad({ phase: 'loaded', profile }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) {
          setLoad({ phase: 'failed', error: errorMessage(error, 'Failed to load') });
        }
      });
    return () => controller.abort();
  }, []);

  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-zinc-900 dark:text-white">
        Your Profile
      </h1>
      {load.phase === 'loading' && <PageSpinner label="Loading your profile" />}
      {load.phase === 'failed' && (
        <Alert tone="error" className="mt-6">
          {load.error}
        </Alert>
      )}
      {load.phase === 'loaded' && (
        <div className="mt-8 flex flex-col gap-10">
          <section aria-labelledby="profile-email-heading">
            <h2
              id="profile-email-heading"
              className="text-lg font-semibold text-zinc-900 dark:text-white"
            >
              Email
            </h2>
            <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">{load.profile.email}</p>
          </section>
          <DisplayNameForm initialDisplayName={load.profile.display_name} />
          <AvatarForm profile={load.profile} />
        </div>
      )}
    </div>
  );
}
