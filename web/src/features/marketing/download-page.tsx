import { routes, type DesktopPlatform } from '@takes/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, ApiError } from '../../lib/api';
import { usePageMeta } from '../../lib/use-page-meta';
import { primaryButton } from '../../ui/button-styles';
import { PageHeader, PageShell, Section, textLinkClass } from './page-parts';

const installers: readonly { platform: DesktopPlatform; label: string; detail: string }[] = [
  { platform: 'mac', label: 'Download for macOS', detail: 'DMG' },
  { platform: 'win', label: 'Download for Windows', detail: 'EXE' },
  { platform: 'linux', label: 'Download for Linux', detail: 'AppImage' },
];

type DownloadState =
  | { kind: 'idle' }
  | { kind: 'preparing'; platform: DesktopPlatform }
  | { kind: 'started'; platform: DesktopPlatform; version: string | null }
  | { kind: 'failed'; error: string };

/**
 * The installer's URL, or the error text to show: the server's error (such as 'no_url'), 'failed'
 * when the server gave none, 'no_url' when the answer has no URL, 'Download failed' when offline.
 */
export async function latestInstallerUrl(
  platform: DesktopPlatform,
): Promise<{ url: string; version: string | null } | { error: string }> {
  try {
    // Read defensively: an answer without a URL (or with none at all) has no installer to offer.
    const latest: { url?: string; version?: string | null } | undefined = await api
      .call(routes.site.getLatestDesktopRelease, { params: { platform } })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status >= 200 && error.status < 300)
          return undefined;
        throw error;
      });
    if (!latest?.url) return { error: 'no_url' };
    return { url: latest.url, version: latest.version ?? null };
  } catch (error) {
    if (error instanceof ApiError && error.status !== 0) {
      return { error: error.serverMessage ?? 'failed' };
    }
    return { error: 'Download failed' };
  }
}

export function DownloadPage() {
  usePageMeta(
    'Download · Takes',
    'Download Takes Desktop for macOS (DMG), Windows (EXE) or Linux (AppImage) and publish bounces straight from your computer.',
  );
  const [state, setState] = useState<DownloadState>({ kind: 'idle' });
  const preparing = state.kind === 'preparing';

  async function download(platform: DesktopPlatform) {
    setState({ kind: 'preparing', platform });
    const result = await latestInstallerUrl(platform);
    if ('error' in result) {
      setState({ kind: 'failed', error: result.error });
      return;
    }
    setState({ kind: 'started', platform, version: result.version });
    window.location.assign(result.url);
  }

  return (
    <PageShell>
      <PageHeader eyebrow="Download" title="Takes Desktop">
        <p>
          Publish bounces from your computer straight into a Takes repository: commit on a branch,
          attach the bounce, and listen to it in the browser a moment later.
        </p>
      </PageHeader>

      <ul className="grid gap-4 sm:grid-cols-3">
        {installers.map((installer) => (
          <li key={installer.platform}>
            <button
              type="button"
              className={`${primaryButton} w-full flex-col py-4`}
              disabled={preparing}
              onClick={() => void download(installer.platform)}
            >
              <span>{installer.label}</span>
              <span className="text-xs font-normal opacity-80">{installer.detail}</span>
            </button>
          </li>
        ))}
      </ul>

      <div className="mt-6 min-h-12" aria-live="polite">
        {state.kind === 'preparing' && (
          <p className="text-zinc-600 dark:text-zinc-400">Preparing your download…</p>
        )}
        {state.kind === 'started' && (
          <p className="text-zinc-600 dark:text-zinc-400">
            Your download of Takes Desktop{state.version ? ` ${state.version}` : ''} should start
            now.
          </p>
        )}
        {state.kind === 'failed' && (
          <div role="alert">
            <p className="font-medium text-red-600 dark:text-red-400">{state.error}</p>
            {state.error === 'no_url' && (
              <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
                No installer has been published for this platform yet. Please try again later.
              </p>
            )}
          </div>
        )}
      </div>

      {state.kind === 'failed' && state.error === 'no_url' && (
        <CliInstructions origin={window.location.origin} />
      )}

      <Section title="After installing">
        <p>
          Open Takes Desktop and choose to sign in. It opens Takes in your browser, where you
          approve the sign-in; the browser then hands you back to the app.
        </p>
        <p>
          Prefer the terminal? The <code>takes</code> command-line tool does the same job; the{' '}
          <Link to="/resources#desktop" className={textLinkClass}>
            desktop and CLI guide
          </Link>{' '}
          shows how.
        </p>
      </Section>
    </PageShell>
  );
}

const commandClass =
  'block overflow-x-auto rounded-md bg-zinc-100 px-3 py-2 font-mono text-sm text-zinc-800 dark:bg-zinc-900 dark:text-zinc-200';

/**
 * What a visitor of an instance without installers can use today: the takes CLI, which this
 * server offers as one npm package (no registry needed), as the desktop companion.
 */
function CliInstructions({ origin }: { origin: string }) {
  const packageUrl = `${origin}/downloads/takes-cli.tgz`;
  return (
    <Section title="Use the takes command-line tool instead">
      <p>
        It signs in through your browser, publishes every bounce your DAW exports and opens the Pull
        links of this site. It needs Node.js 20 or later.
      </p>
      <ol className="list-decimal space-y-3 pl-5">
        <li>
          Install it from this server:
          <code className={commandClass}>npm install -g {packageUrl}</code>
          or run it without installing: <code>npx --yes --package {packageUrl} takes --help</code>
        </li>
        <li>
          Sign in (your browser opens this site to approve):
          <code className={commandClass}>takes login --server {origin}</code>
        </li>
        <li>
          Let this site&apos;s Pull buttons and sign-in links open it:
          <code className={commandClass}>takes link register</code>
        </li>
        <li>
          Publish every bounce you export to a repository as it appears:
          <code className={commandClass}>
            takes watch ~/Music/Bounces --repo &quot;Night Drive&quot;
          </code>
        </li>
      </ol>
    </Section>
  );
}
