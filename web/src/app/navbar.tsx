import { lazy, Suspense, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { useAuth } from '../features/auth/use-auth';
import { AvatarMenu } from './avatar-menu';
import { SearchBox } from './search-box';
import { menuItemClass, useMenuButton } from './use-menu-button';
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

/**
 * The site's pages behind one button, for a signed-in person: their workspace links come first in
 * the row, and the row fits a 1024 px window.
 */
function SiteMenu() {
  const menu = useMenuButton();
  return (
    <div ref={menu.containerRef} className="relative">
      <button
        {...menu.buttonProps}
        className="flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white"
      >
        More
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
          <path d="M5.2 7.2a.75.75 0 0 1 1.06 0L10 10.94l3.74-3.74a.75.75 0 1 1 1.06 1.06l-4.27 4.27a.75.75 0 0 1-1.06 0L5.2 8.26a.75.75 0 0 1 0-1.06Z" />
        </svg>
      </button>
      {menu.open && (
        <div
          {...menu.menuProps}
          aria-label="More"
          className="absolute left-0 z-50 mt-2 w-48 overflow-hidden rounded-md border border-zinc-200 bg-white py-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
        >
          {publicLinks.map((link) => (
            <Link
              key={link.to}
              role="menuitem"
              tabIndex={-1}
              to={link.to}
              className={menuItemClass}
              onClick={menu.close}
            >
              {link.label}
            </Link>
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * One row from 1024 px, the compact menu below. Measured in Chromium with this app's fonts, the
 * signed-in row needs 951 px (1015 px from 1280, where the search box widens) and the signed-out
 * one 894 px; 1024 leaves room for a wider system font. Signed in, the row holds the workspace
 * links and 'More' (the site's pages, which the footer also lists); signed out, the site's pages.
 */
export function Navbar() {
  const auth = useAuth();
  const signedIn = auth.status === 'signed-in';
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = () => setMenuOpen(false);
  const rowLinks = signedIn ? signedInLinks : publicLinks;
  const menuLinks = signedIn ? [...signedInLinks, ...publicLinks] : publicLinks;

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

          <ul className="hidden items-center gap-1 lg:flex">
            {rowLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end className={navLinkClass}>
                  {link.label}
                </NavLink>
              </li>
            ))}
            {signedIn && (
              <li>
                <SiteMenu />
              </li>
            )}
          </ul>

          <div className="ml-auto flex min-w-0 items-center gap-2">
            <SearchBox
              className={`hidden min-w-0 md:block ${signedIn ? 'w-56 lg:w-40 xl:w-56' : 'w-64'}`}
            />
            <ThemeToggle />
            {signedIn && (
              <Suspense fallback={null}>
                <NotificationBell />
              </Suspense>
            )}
            {signedIn && <AvatarMenu user={auth.user} />}
            {auth.status === 'signed-out' && (
              <Link
                to="/login"
                className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold whitespace-nowrap text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
              >
                Sign in
              </Link>
            )}
            <button
              type="button"
              className="rounded-md p-2 text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 lg:hidden dark:text-zinc-300 dark:hover:bg-zinc-800"
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
          <div id="mobile-menu" className="pb-4 lg:hidden">
            <SearchBox className="mb-2 md:hidden" onSearched={closeMenu} />
            <ul className="flex flex-col gap-1">
              {menuLinks.map((link) => (
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
