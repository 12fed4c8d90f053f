/** The global player's idle state; playback arrives with the player issue. */
export function PlayerBar() {
  return (
    <section
      aria-label="Audio player"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-zinc-200 bg-white/95 backdrop-blur dark:border-zinc-800 dark:bg-zinc-900/95"
    >
      <div className="mx-auto flex h-14 max-w-6xl items-center px-4 text-sm text-zinc-500 sm:px-6 dark:text-zinc-400">
        No track currently playing
      </div>
    </section>
  );
}
