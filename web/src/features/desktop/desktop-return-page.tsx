import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../lib/use-document-title';
import { primaryButton } from '../../ui/button-styles';
import { desktopAuthCallbackUrl, desktopScheme } from './desktop-link';

/** Hands the approved sign-in to the desktop app through its deep link. */
export function DesktopReturnPage() {
  useDocumentTitle('Takes Desktop · Takes');
  const [searchParams] = useSearchParams();
  const code = searchParams.get('code');
  const [callbackUrl, setCallbackUrl] = useState<string | null>(null);

  useEffect(() => {
    if (!code) return;
    let current = true;
    void desktopScheme().then((scheme) => {
      if (!current) return;
      const url = desktopAuthCallbackUrl(scheme, code);
      setCallbackUrl(url);
      window.location.replace(url);
    });
    return () => {
      current = false;
    };
  }, [code]);

  return (
    <div className="mx-auto max-w-xl px-4 py-24 text-center sm:px-6">
      <h1 className="text-2xl font-bold tracking-tight text-zinc-900 dark:text-white">
        Takes Desktop
      </h1>
      {!code ? (
        <p role="alert" className="mt-4 text-red-600 dark:text-red-400">
          Missing code parameter.
        </p>
      ) : callbackUrl ? (
        <>
          <p className="mt-4 text-zinc-600 dark:text-zinc-400">
            Returning you to Takes Desktop. If nothing happens, open it with the button below.
          </p>
          <a href={callbackUrl} className={`${primaryButton} mt-8`}>
            Open Takes Desktop
          </a>
        </>
      ) : (
        <p className="mt-4 text-zinc-600 dark:text-zinc-400">Opening Takes Desktop…</p>
      )}
    </div>
  );
}
