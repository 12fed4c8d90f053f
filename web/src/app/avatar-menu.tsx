import { useId } from 'react';
import { Link, useNavigate } from 'react-router';
import type { SessionUser } from '@takes/contract';
import { UserAvatar } from '../features/auth/user-avatar';
import { useAuth } from '../features/auth/use-auth';
import { menuItemClass, useMenuButton } from './use-menu-button';

/** The signed-in person's menu: who is signed in, profile, settings and sign out. */
export function AvatarMenu({ user }: { user: SessionUser }) {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const menu = useMenuButton();
  const signedInAsId = useId();

  async function onSignOut() {
    menu.close();
    // Leave the protected page first (rendered at once), so its guard does not send us to /login.
    await navigate('/', { flushSync: true });
    try {
      await signOut();
    } catch (error) {
      console.error('Sign out failed', error);
    }
  }

  return (
    <div ref={menu.containerRef} className="relative">
      <button
        {...menu.buttonProps}
        aria-label="Account menu"
        className="flex rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
      >
        <UserAvatar user={user} />
      </button>
      {menu.open && (
        <div className="absolute right-0 z-50 mt-2 w-56 overflow-hidden rounded-md border border-zinc-200 bg-white py-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900">
          <div
            id={signedInAsId}
            className="border-b border-zinc-200 px-4 py-2 dark:border-zinc-700"
          >
            <p className="text-xs text-zinc-500 dark:text-zinc-400">Signed in as</p>
            <p className="truncate text-sm font-medium text-zinc-900 dark:text-white">
              {user.email}
            </p>
          </div>
          <div
            {...menu.menuProps}
            aria-label="Account"
            aria-describedby={signedInAsId}
            className="pt-1"
          >
            <Link
              role="menuitem"
              tabIndex={-1}
              to="/profile"
              className={menuItemClass}
              onClick={menu.close}
            >
              Your Profile
            </Link>
            <Link
              role="menuitem"
              tabIndex={-1}
              to="/settings"
              className={menuItemClass}
              onClick={menu.close}
            >
              Settings
            </Link>
            <button
              role="menuitem"
              tabIndex={-1}
              type="button"
              className={menuItemClass}
              onClick={() => void onSignOut()}
            >
              Sign out
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
