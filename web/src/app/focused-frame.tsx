import type { ComponentType, ReactNode } from 'react';
import { Outlet } from 'react-router';
import { useAuth } from '../features/auth/use-auth';
import { AudioPlayerProvider } from '../features/player/audio-player-provider';
import { useAudioPlayer } from '../features/player/use-audio-player';
import { useMediaSession } from '../features/player/use-media-session';
import { LiveEvents } from '../lib/live-events';

/**
 * The focused frame of a share link's listener page, shared by the app's layout (AppLayout at
 * `/share/:hash`) and the share entry's (ShareLayout). Kept light: the share entry loads it, so it
 * imports nothing of the site's navbar, footer, player bar or other screens.
 */

/** The page's outer box, under every layout's frame. */
export const pageFrameClass =
  'flex min-h-dvh flex-col bg-white font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100';

export interface FrameLinkProps {
  to: string;
  className: string;
  children: ReactNode;
}

/** How the frame's links are drawn: the router's Link in the app, a plain anchor in the share entry. */
export type FrameLink = ComponentType<FrameLinkProps>;

/** The listener page's header: a small 'Takes' mark and 'Sign up', nothing else around it. */
function FocusedHeader({ link: FrameLink }: { link: FrameLink }) {
  const auth = useAuth();
  return (
    <header className="border-b border-zinc-200 dark:border-zinc-800">
      <div className="mx-auto flex max-w-6xl items-center justify-between px-4 py-3 sm:px-6">
        <FrameLink
          to="/"
          className="text-lg font-bold tracking-tight text-indigo-700 dark:text-indigo-300"
        >
          Takes
        </FrameLink>
        {auth.status === 'signed-out' ? (
          <FrameLink
            to="/login?mode=sign-up"
            className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            Sign up
          </FrameLink>
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

/**
 * The focused page: no site frame, and the page's own transport instead of the player bar, so
 * nothing covers the waveform or the comment form on a phone.
 */
export function FocusedFrame({ link }: { link: FrameLink }) {
  return (
    <AudioPlayerProvider>
      <LiveEvents />
      <MediaSessionOnly />
      <div className={pageFrameClass}>
        <FocusedHeader link={link} />
        <main className="flex-1">
          <Outlet />
        </main>
      </div>
    </AudioPlayerProvider>
  );
}
