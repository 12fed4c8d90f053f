import { lazy, Suspense, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { useAuth } from '../features/auth/use-auth';
import { AvatarMenu } from './avatar-menu';
import { SearchBox } from './search-box';
import { ThemeToggle } from './theme-toggle';

// Signed-in only: its code stays out of the landing page's first load.
const NotificationBell = lazy(() =>
  import('../features/notifications/notification-bell').then((m) => ({
    default: m.NotificationBell,
  })),
);

const publicLinks = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About Us' },
  { to: '/roadmap', label: 'Roadmap' },
  { to: '/blog', label: 'Blog' },
  { to: '/download', label: 'Download' },
] as const;

const signedInLinks = [
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/upload', label: 'Upload' },
  { to: '/repositories', label: 'Repositories' },
  { to: '/bounces', label: 'Bounces' },
  { to: '/collections', label: 'Collections' },
] as const;

function navLinkClass({ isActive }: { isActive: boolean }): string {
  const base =
    'block rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-indigo-500';
  return isActive
    ? `${base} bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-white`
    : `${base} text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white`;
}

export function Navbar() {
  const auth = useAuth();
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = () => setMenuOpen(false);
  const links = auth.status === 'signed-in' ? [...publicLinks, ...signedInLinks] : publicLinks;

  return (
    <header className="sticky top-0 z-40 border-b border-zinc-200 bg-white/90 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/90">
      <nav aria-label="Main" className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="flex h-16 items-center gap-4">
          <Link
            to="/"
            className="text-xl font-extrabold tracking-tight text-zinc-900 dark:text-white"
            onClick={closeMenu}
          >
            Takes
          </Link>

          <ul className="hidden items-center gap-1 xl:flex">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end className={navLinkClass}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>

          <div className="ml-auto flex items-center gap-2">
            <SearchBox className="hidden w-64 md:block xl:w-48" />
            <ThemeToggle />
            {auth.status === 'signed-in' && (
              <Suspense fallback={null}>
                <NotificationBell />
              </Suspense>
            )}
            {auth.status === 'signed-in' && <AvatarMenu user={auth.user} />}
            {auth.status === 'signed-out' && (
              <Link
                to="/login"
                className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
              >
                Sign in
              </Link>
            )}
            <button
              type="button"
              className="rounded-md p-2 text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 xl:hidden dark:text-zinc-300 dark:hover:bg-zinc-800"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpen}
              aria-controls="mobile-menu"
              onClick={() => setMenuOpen((open) => !open)}
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="size-5"
                fill="none"
                stroke="currentColor"
                strokeWidth={1.8}
                strokeLinecap="round"
              >
                {menuOpen ? (
                  <path d="M6 6l12 12M18 6L6 18" />
                ) : (
                  <path d="M4 7h16M4 12h16M4 17h16" />
                )}
              </svg>
            </button>
          </div>
        </div>

        {menuOpen && (
          <div id="mobile-menu" className="pb-4 xl:hidden">
            <SearchBox className="mb-2 md:hidden" onSearched={closeMenu} />
            <ul className="flex flex-col gap-1">
              {links.map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to} end className={navLinkClass} onClick={closeMenu}>
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        )}
      </nav>
    </header>
  );
}
