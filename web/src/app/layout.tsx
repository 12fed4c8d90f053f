import { lazy, Suspense, useState } from 'react';
import { Outlet } from 'react-router';
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

export function AppLayout() {
  // The player's share button opens Quick Share for the version it is playing.
  const [sharing, setSharing] = useState<PlayerTrack | null>(null);
  return (
    <AudioPlayerProvider>
      <LiveEvents />
      <div className="flex min-h-dvh flex-col bg-white pb-14 font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <Navbar />
        <main className="flex-1">
          <Outlet />
        </main>
        <Footer />
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
