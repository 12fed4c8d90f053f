import { lazy, Suspense, useState } from 'react';
import { Link, Outlet, useMatch } from 'react-router';
import { AudioPlayerProvider } from '../features/player/audio-player-provider';
import { GlobalPlayer } from '../features/player/global-player';
import type { PlayerTrack } from '../features/player/use-audio-player';
import { LiveEvents } from '../lib/live-events';
import { FocusedFrame, pageFrameClass } from './focused-frame';
import { Footer } from './footer';
import { Navbar } from './navbar';

// Only signed-in owners share from the player, so its dialog loads when first opened.
const QuickShareDialog = lazy(() =>
  import('../features/share/quick-share-dialog').then((m) => ({ default: m.QuickShareDialog })),
);

export function AppLayout() {
  // The player's share button opens Quick Share for the version it is playing.
  const [sharing, setSharing] = useState<PlayerTrack | null>(null);
  // A share link's page is focused: no site frame, and its own transport instead of the player
  // bar, so nothing covers the waveform or the comment form on a phone.
  const sharePage = useMatch('/share/:hash') !== null;
  // An upload link's guest page is focused the same way.
  const guestUploadPage = useMatch('/upload/:key') !== null;
  const focused = sharePage || guestUploadPage;
  if (focused) return <FocusedFrame link={Link} />;
  return (
    <AudioPlayerProvider>
      <LiveEvents />
      <div className={pageFrameClass}>
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
