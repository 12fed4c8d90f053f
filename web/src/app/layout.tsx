import { Outlet } from 'react-router';
import { PlayerBar } from '../features/player/player-bar';
import { Footer } from './footer';
import { Navbar } from './navbar';

export function AppLayout() {
  return (
    <div className="flex min-h-dvh flex-col bg-white pb-14 font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
      <Navbar />
      <main className="flex-1">
        <Outlet />
      </main>
      <Footer />
      <PlayerBar />
    </div>
  );
}
