import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useAuth } from '../features/auth/use-auth';
import { AudioPlayerProvider } from '../features/player/audio-player-provider';
import { useAudioPlayer } from '../features/player/use-audio-player';
import { useMediaSession } from '../features/player/use-media-session';
import { LiveEvents } from '../lib/live-events';

/**
 * The frame of the share entry (share.html, what a share link opens on its first visit): the
 * same focused page as the app's layout gives `/share/:hash`, without the site's navbar, footer
 * or player bar, so the listener downloads only the share page's code. Anything outside
 * `/share/:hash` belongs to the full app, so its links load the page afresh (plain anchors).
 */
function FocusedHeader() {
  const auth = useAuth();
  return (
    <header className="border-b border-zinc-200 dark:border-zinc-800">
      <div className="mx-auto flex max-w-6xl items-center justify-between px-4 py-3 sm:px-6">
        <a
          href="/"
          className="text-lg font-bold tracking-tight text-indigo-700 dark:text-indigo-300"
        >
          Takes
        </a>
        {auth.status === 'signed-out' ? (
          <a
            href="/login?mode=sign-up"
            className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            Sign up
          </a>
        ) : null}
      </div>
    </header>
  );
}

/** The lock screen's controls: the share page draws its own transport instead of the player bar. */
function MediaSessionOnly() {
  useMediaSession(useAudioPlayer());
  return null;
}

export function ShareLayout() {
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
}

/** Where this document was first loaded: the share page the server answered with share.html. */
const firstPath = typeof window === 'undefined' ? '' : window.location.pathname;

/**
 * Any address but a share page's, reached from within the share entry: the full app serves it,
 * so the browser loads it as a new document. The document's own first address never lands here
 * (the server sends share.html only for `/share/:hash`); if it did, it goes to the app's
 * not-found page rather than reloading itself.
 */
export function LeaveShareEntry() {
  const location = useLocation();
  useEffect(() => {
    const target = `${location.pathname}${location.search}${location.hash}`;
    window.location.replace(location.pathname === firstPath ? '/404' : target);
  }, [location]);
  return null;
}
