import { lazy, Suspense, useState } from 'react';
import { Link, Outlet, useMatch } from 'react-router';
import { useAuth } from '../features/auth/use-auth';
import { useMediaSession } from '../features/player/use-media-session';
import { useAudioPlayer } from '../features/player/use-audio-player';
import { AudioPlayerProvider } from '../features/player/audio-player-provider';
import { GlobalPlayer } from '../features/player/global-player';
import type { PlayerTrack } from '../features/player/use-audio-player';
import { LiveEvents } from '../lib/live-events';
import { Footer } from './footer';
import { Navbar } from './navbar';

// Only signed-in owners share from the player, so its dialog loads when first opened.
const QuickShareDialog = lazy(() =>
  import('../features/share/quick-share-dialog').then((m) => ({ default: m.QuickShareDialog })),
);

/** The share link's listener page: a small 'Takes' mark and 'Sign up', nothing else around it. */
function FocusedHeader() {
  const auth = useAuth();
  return (
    <header className="border-b border-zinc-200 dark:border-zinc-800">
      <div className="mx-auto flex max-w-6xl items-center justify-between px-4 py-3 sm:px-6">
        <Link
          to="/"
          className="text-lg font-bold tracking-tight text-indigo-700 dark:text-indigo-300"
        >
          Takes
        </Link>
        {auth.status === 'signed-out' ? (
          <Link
            to="/login?mode=sign-up"
            className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            Sign up
          </Link>
        ) : null}
      </div>
    </header>
  );
}

/** The lock screen's controls where the page draws its own transport instead of the player bar. */
function MediaSessionOnly() {
  useMediaSession(useAudioPlayer());
  return null;
}

export function AppLayout() {
  // The player's share button opens Quick Share for the version it is playing.
  const [sharing, setSharing] = useState<PlayerTrack | null>(null);
  // A share link's page is focused: no site frame, and its own transport instead of the player
  // bar, so nothing covers the waveform or the comment form on a phone.
  const focused = useMatch('/share/:hash') !== null;
  if (focused)
    return (
      <AudioPlayerProvider>
        <LiveEvents />
        <MediaSessionOnly />
        <div className="flex min-h-dvh flex-col bg-white font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
          <FocusedHeader />
          <main className="flex-1">
            <Outlet />
          </main>
        </div>
      </AudioPlayerProvider>
    );
  return (
    <AudioPlayerProvider>
      <LiveEvents />
      <div className="flex min-h-dvh flex-col bg-white font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <Navbar />
        {/* At least the viewport under the navbar (h-16 and its border), so the footer stays below
            the fold while a lazy page loads instead of jumping down when it arrives. */}
        <main className="min-h-[calc(100dvh-4rem)] flex-1">
          <Outlet />
        </main>
        <Footer />
        {/* The player leaves a spacer as tall as its bar, so nothing stays hidden beneath it. */}
        <GlobalPlayer onShare={(track) => setSharing(track)} />
        {sharing?.versionId ? (
          <Suspense fallback={null}>
            <QuickShareDialog
              open
              onClose={() => setSharing(null)}
              versionId={sharing.versionId}
              projectName={sharing.album ?? sharing.artist ?? sharing.title}
              versionNumber={sharing.versionNumber ?? 1}
            />
          </Suspense>
        ) : null}
      </div>
    </AudioPlayerProvider>
  );
}
