import { useParams } from 'react-router';
import { ApiError } from '../../lib/api';
import { formatFileSize } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { PageSpinner } from '../../ui/spinner';
import { LinkFailure, lookupFailure } from '../share/link-failure';
import { LinkPasswordForm } from '../share/link-password-form';
import { useNoIndex } from '../share/use-noindex';
import { useUnlockUploadLink, useUploadLinkPage } from './guest-upload-api';
import { GuestUploadForm } from './guest-upload-form';

/**
 * /upload/:key, an 'Upload link' as its guest meets it: focused like the listener page, the link's
 * name and message, a name, an optional address and the files. Nothing of the project is shown
 * (the server sends nothing of it).
 */
export function GuestUploadPage() {
  const key = useParams().key ?? '';
  const page = useUploadLinkPage(key);
  useDocumentTitle(page.data ? `Send files: ${page.data.name}` : 'Send files');
  useNoIndex();

  if (page.isPending) return <PageSpinner label="Loading upload link" />;
  if (page.isError) {
    if (page.error instanceof ApiError && page.error.code === 'link_password_required')
      return <Unlock linkKey={key} />;
    return <LinkFailure title="Upload link" message={lookupFailure(page.error)} />;
  }
  const link = page.data;
  const expires = new Date(link.expires_at).toLocaleDateString();
  return (
    <div className="mx-auto max-w-xl px-4 py-8 sm:px-6 sm:py-12">
      <p className="text-sm font-medium text-indigo-700 dark:text-indigo-300">Send files</p>
      <h1 className="mt-1 text-2xl font-bold break-words">{link.name}</h1>
      {link.message ? (
        <p className="mt-3 text-sm whitespace-pre-line text-zinc-700 dark:text-zinc-300">
          {link.message}
        </p>
      ) : null}
      <p className="mt-3 text-xs text-zinc-600 dark:text-zinc-400">
        {link.files_left === 1 ? '1 file' : `${link.files_left} files`} and{' '}
        {formatFileSize(link.bytes_left)} left on this link · open until {expires}
      </p>
      <div className="mt-6">
        {link.files_left > 0 ? (
          <GuestUploadForm linkKey={key} page={link} />
        ) : (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            This link has taken all the files it can. Ask for a new link to send more.
          </p>
        )}
      </div>
    </div>
  );
}

function Unlock({ linkKey }: { linkKey: string }) {
  const unlock = useUnlockUploadLink(linkKey);
  return <LinkPasswordForm unlock={unlock} what="the upload link" />;
}
